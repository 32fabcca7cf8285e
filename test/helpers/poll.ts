/**
 * Waits for a state that something else (a worker, another process) brings about: `check` runs until it
 * returns a value other than undefined, which is returned. Bounded in time and in rounds; the error says
 * what was awaited and the last value seen, so a failure shows how far things got.
 */
export async function pollUntil<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  options: { timeoutMs?: number; intervalMs?: number; progress?: () => unknown } = {},
): Promise<T> {
  const { timeoutMs = 30_000, intervalMs = 20 } = options;
  const deadline = Date.now() + timeoutMs;
  const rounds = Math.ceil(timeoutMs / intervalMs) + 1;
  for (let round = 0; round < rounds; round++) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const seen = options.progress ? ` (last seen: ${JSON.stringify(options.progress())})` : '';
  throw new Error(`${what}: not reached within ${timeoutMs} ms${seen}`);
}
