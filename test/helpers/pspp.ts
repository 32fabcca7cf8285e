import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';

const run = promisify(execFile);

/**
 * Debian's pspp reads a `.sav` (its bytes, or a file's path) and prints SYSFILE INFO, DISPLAY DICTIONARY
 * and LIST as csv: the tables by title ("File Information", "Variables", "Value Labels", "Data List"),
 * and everything pspp said (to find warnings).
 */
export async function readSavWithPspp(
  sav: Buffer | string,
): Promise<{ tables: Map<string, string[][]>; log: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'fieldwork-sav-'));
  try {
    const savPath = typeof sav === 'string' ? sav : join(dir, 'read.sav');
    if (typeof sav !== 'string') await writeFile(savPath, sav);
    const syntax = join(dir, 'read.sps');
    const outPath = join(dir, 'out.csv');
    const quoted = savPath.replace(/'/g, "''");
    await writeFile(
      syntax,
      `SYSFILE INFO FILE='${quoted}'.\nGET FILE='${quoted}'.\nDISPLAY DICTIONARY.\nLIST.\n`,
    );
    const { stdout, stderr } = await run('pspp', [syntax, '-o', outPath], { maxBuffer: 64 << 20 });
    const output = await readFile(outPath, 'utf8');
    const tables = new Map<string, string[][]>();
    for (const block of output.split(/\n(?=Table: )/)) {
      const newline = block.indexOf('\n');
      const title = block.slice(0, newline).replace(/^Table: /, '');
      tables.set(title, parse(block.slice(newline + 1), { relax_column_count: true }) as string[][]);
    }
    return { tables, log: stdout + stderr + output };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** LIST's rows, each a map from variable name to the printed value. */
export function dataRows(tables: Map<string, string[][]>): Map<string, string>[] {
  const [header = [], ...data] = tables.get('Data List') ?? [];
  return data.map((row) => new Map(header.map((column, i) => [column, row[i] as string])));
}

/**
 * The Value Labels table as one line per variable, `1=Small 2=Large`, keyed as pspp names a variable
 * there: by its label (its name when it has none). A variable labelled twice would show its labels twice.
 */
export function valueLabelLines(tables: Map<string, string[][]>): Map<string, string> {
  const lines = new Map<string, string>();
  let variable = '';
  for (const [label, value, text] of (tables.get('Value Labels') ?? []).slice(1) as string[][]) {
    variable = label || variable;
    lines.set(variable, [lines.get(variable), `${value}=${text}`].filter(Boolean).join(' '));
  }
  return lines;
}
