/**
 * The .sav file header and dictionary records, in file order: header (176 bytes), variable records (type 2)
 * with continuations, value labels (types 3 and 4), extension records 7/3, 7/4, 7/11, 7/13, 7/14, 7/20,
 * and the terminator 999 (PSPP "System File Format"). Little-endian, UTF-8 (character code 65001).
 */
import type { ByteOutput } from './chunked-output.js';
import { caseElements, type SavVariable } from './sav-dictionary.js';

/** Byte offset of the case count in the header: -1 while streaming, patched later when the file allows. */
export const CASE_COUNT_OFFSET = 80;
const PRODUCT = '@(#) SPSS DATA FILE Fieldwork export writer';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const SYSMIS = -Number.MAX_VALUE;
const LOWEST = (() => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(0xffeffffffffffffen);
  return b.readDoubleLE(0);
})();

const text = (value: string) => Buffer.from(value, 'utf8');
const padded = (value: string, length: number) =>
  Buffer.from(value.padEnd(length, ' ').slice(0, length), 'latin1');
const pad2 = (n: number) => String(n).padStart(2, '0');

async function putHeader(out: ByteOutput, variables: readonly SavVariable[], created: Date): Promise<void> {
  await out.reserve(176);
  out.putBytes(text('$FL2'));
  out.putBytes(padded(PRODUCT, 60));
  out.putInt32(2); // layout code
  out.putInt32(caseElements(variables));
  out.putInt32(1); // bytecode compression
  out.putInt32(0); // not weighted
  out.putInt32(-1); // case count unknown (offset 80)
  out.putDouble(100); // compression bias
  const date = `${pad2(created.getUTCDate())} ${MONTHS[created.getUTCMonth()]} ${pad2(created.getUTCFullYear() % 100)}`;
  out.putBytes(padded(date, 9));
  out.putBytes(
    padded(
      `${pad2(created.getUTCHours())}:${pad2(created.getUTCMinutes())}:${pad2(created.getUTCSeconds())}`,
      8,
    ),
  );
  out.putBytes(padded('', 64)); // file label
  out.putFill(0, 3);
}

async function putVariable(out: ByteOutput, variable: SavVariable): Promise<void> {
  for (const [i, segment] of variable.segments.entries()) {
    const label = i === 0 && variable.label !== '' ? text(variable.label) : undefined;
    const format = i === 0 || segment.width === 0 ? variable.format : (1 << 16) | (segment.width << 8);
    await out.reserve(32 + (label ? 4 + label.length + 3 : 0) + 32 * segment.elements);
    out.putInt32(2);
    out.putInt32(segment.width);
    out.putInt32(label ? 1 : 0);
    out.putInt32(0); // no missing values
    out.putInt32(format);
    out.putInt32(format);
    out.putBytes(padded(segment.shortName, 8));
    if (label) {
      out.putInt32(label.length);
      out.putBytes(label);
      out.putFill(0, (4 - (label.length % 4)) % 4);
    }
    for (let c = 1; c < segment.elements; c++) {
      for (const value of [2, -1, 0, 0, 0, 0]) out.putInt32(value);
      out.putBytes(padded('', 8));
    }
  }
}

async function putValueLabels(out: ByteOutput, variable: SavVariable): Promise<void> {
  if (variable.valueLabels.length === 0) return;
  const labels = variable.valueLabels.map((entry) => ({ value: entry.value, bytes: text(entry.label) }));
  await out.reserve(20 + labels.reduce((sum, l) => sum + 16 + l.bytes.length, 0));
  out.putInt32(3);
  out.putInt32(labels.length);
  for (const { value, bytes } of labels) {
    out.putDouble(value);
    out.putFill(bytes.length, 1);
    out.putBytes(bytes);
    out.putFill(0x20, (8 - ((1 + bytes.length) % 8)) % 8);
  }
  out.putInt32(4);
  out.putInt32(1);
  out.putInt32(variable.dictionaryIndex);
}

async function putExtension(out: ByteOutput, subtype: number, size: number, data: Buffer): Promise<void> {
  await out.reserve(16 + data.length);
  for (const value of [7, subtype, size, data.length / size]) out.putInt32(value);
  out.putBytes(data);
}

function ints(values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 4);
  for (const [i, v] of values.entries()) b.writeInt32LE(v, i * 4);
  return b;
}

function doubles(values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 8);
  for (const [i, v] of values.entries()) b.writeDoubleLE(v, i * 8);
  return b;
}

async function putExtensions(out: ByteOutput, variables: readonly SavVariable[]): Promise<void> {
  // 7/3: version 1.0.0, machine -1, IEEE 754, compression 1, little-endian, UTF-8.
  await putExtension(out, 3, 4, ints([1, 0, 0, -1, 1, 1, 2, 65001]));
  await putExtension(out, 4, 8, doubles([SYSMIS, Number.MAX_VALUE, LOWEST]));
  const display = variables.flatMap((v) =>
    v.segments.flatMap(() => [v.measure, v.width > 0 ? Math.min(v.width, 40) : 10, v.width > 0 ? 0 : 1]),
  );
  await putExtension(out, 11, 4, ints(display));
  const longNames = variables.map((v) => `${v.segments[0]?.shortName}=${v.name}`).join('\t');
  await putExtension(out, 13, 1, text(longNames));
  const veryLong = variables.filter((v) => v.segments.length > 1);
  if (veryLong.length > 0) {
    const entries = veryLong.map(
      (v) => `${v.segments[0]?.shortName}=${String(v.width).padStart(5, '0')}\0\t`,
    );
    await putExtension(out, 14, 1, text(entries.join('')));
  }
  await putExtension(out, 20, 1, text('UTF-8'));
}

/** Everything before the first case. */
export async function putDictionary(
  out: ByteOutput,
  variables: readonly SavVariable[],
  created: Date,
): Promise<void> {
  await putHeader(out, variables, created);
  for (const variable of variables) await putVariable(out, variable);
  for (const variable of variables) await putValueLabels(out, variable);
  await putExtensions(out, variables);
  await out.reserve(8);
  out.putInt32(999);
  out.putInt32(0);
}
