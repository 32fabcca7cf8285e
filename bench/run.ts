/**
 * Runs the benchmarks: `npm run bench` runs all, `npm run bench -- engine` exactly `engine.bench.ts`
 * (several names run several; a name that is no benchmark's fails with the list). Each benchmark measures
 * Fieldwork and a baseline in the same run and prints their ratio, so the figure means the same on a
 * noisy machine. Nothing here asserts a time: see the closing notes of issues.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface BenchResult {
  name: string;
  /** Lines of figures, printed as they are. */
  lines: string[];
}

const SUFFIX = '.bench.ts';
const dir = fileURLToPath(new URL('.', import.meta.url));
const names = readdirSync(dir)
  .filter((file) => file.endsWith(SUFFIX))
  .map((file) => file.slice(0, -SUFFIX.length))
  .sort();
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !names.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`No benchmark named ${unknown.join(', ')}. The benchmarks: ${names.join(', ')}.\n`);
  process.exit(2);
}

for (const name of asked.length === 0 ? names : asked) {
  const module = (await import(`./${name}${SUFFIX}`)) as { default: () => Promise<BenchResult> };
  const started = Date.now();
  const result = await module.default();
  process.stdout.write(`\n== ${result.name} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  for (const line of result.lines) process.stdout.write(`   ${line}\n`);
}
