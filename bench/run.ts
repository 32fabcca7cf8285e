/**
 * Runs the benchmarks: `npm run bench` runs all, `npm run bench -- users` those whose file name contains
 * "users". Each benchmark measures Fieldwork and a baseline in the same run and prints their ratio, so the
 * figure means the same on a noisy machine. Nothing here asserts a time: see the closing notes of issues.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface BenchResult {
  name: string;
  /** Lines of figures, printed as they are. */
  lines: string[];
}

const dir = fileURLToPath(new URL('.', import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();

for (const file of files) {
  const module = (await import(`./${file}`)) as { default: () => Promise<BenchResult> };
  const started = Date.now();
  const result = await module.default();
  process.stdout.write(`\n== ${result.name} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  for (const line of result.lines) process.stdout.write(`   ${line}\n`);
}
