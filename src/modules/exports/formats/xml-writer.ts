/**
 * xml, in the real platform's layout (../shared/fixtures/exports/sp-xml.xml):
 * `<Responses><Response><startDate>...</startDate><QID4_5_TEXT>...</QID4_5_TEXT>...</Response></Responses>`,
 * one element per column named by its key (the ImportId-style key), empty values as `<x></x>`.
 * A streaming writer of our own: xmlbuilder2's streaming builder writes control characters as they are,
 * which makes the document ill-formed; here they become U+FFFD, and CR is kept as `&#13;`.
 */
import type { Writable } from 'node:stream';
import { type CellText, cellSettings, cellText, seenFields } from './cells.js';
import { TextOutput } from './chunked-output.js';
import type { ExportLayout, ExportRows, FormatOptions, WriteResult } from './export-layout.js';

// Characters XML 1.0 forbids (C0 controls but tab and LF; lone surrogates; U+FFFE/U+FFFF); CR is allowed
// but a parser would turn it into LF.
const INVALID =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters; finding them is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const SPECIAL = /[&<>\r]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
// biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters; finding them is the point
const NEEDS_WORK = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

export function escapeXmlText(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  return text.replace(INVALID, '\uFFFD').replace(SPECIAL, (char) => ENTITIES[char] ?? char);
}

/** A valid XML element name from a column key: other characters become `_`, a bad first one gets `_` before it. */
export function xmlElementName(key: string): string {
  const name = key.replace(/[^\p{L}\p{N}_.-]/gu, '_');
  return /^[\p{L}_]/u.test(name) ? name : `_${name}`;
}

/** Writes the document in ~64 KB chunks; does not end `out`. */
export async function writeXml(
  layout: ExportLayout,
  rows: ExportRows,
  out: Writable,
  options: FormatOptions = {},
): Promise<WriteResult> {
  const settings = cellSettings(options);
  const cells: CellText[] = layout.columns.map((column) => cellText(column, settings));
  const opens = layout.columns.map((column) => `<${xmlElementName(column.key)}>`);
  const closes = layout.columns.map((column) => `</${xmlElementName(column.key)}>`);
  const output = new TextOutput(out);
  await output.write('<?xml version="1.0" encoding="UTF-8"?>\n<Responses>');
  let count = 0;
  for await (const row of rows) {
    const seen = seenFields(row, settings);
    let element = '<Response>';
    for (let i = 0; i < cells.length; i++) {
      element += `${opens[i]}${escapeXmlText((cells[i] as CellText)(row, seen))}${closes[i]}`;
    }
    count++;
    const waiting = output.write(`${element}</Response>\n`);
    if (waiting) await waiting;
  }
  await output.write('</Responses>\n');
  await output.flush();
  return { rows: count };
}
