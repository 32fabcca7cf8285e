/**
 * The json baselines' writer: one JSON.stringify of a million responses passes V8's string limit, so each
 * response is stringified alone and the text handed on in ~64 KB batches.
 */
export function* jsonBatches(responses: readonly unknown[]): Generator<string> {
  let batch = '{"responses":[';
  for (const [i, response] of responses.entries()) {
    batch += (i === 0 ? '' : ',\n') + JSON.stringify(response);
    if (batch.length >= 65_536) {
      yield batch;
      batch = '';
    }
  }
  yield `${batch}]}\n`;
}
