/**
 * How far a serving process lets V8 grow its JavaScript heap between two full collections (decision
 * 0019). V8's own factor is up to 4 on a machine with several GB of memory, and it takes that factor at
 * the collections made while the application loads: the old space may then fill to 4 times what was live
 * before garbage in it is collected. A long job that leaves short-lived garbage in old space (a contact
 * import's batches, which V8 pretenures) took the process to that limit: 303–336 MB through the benchmark
 * for a 1,000,000-contact import. A fixed factor holds the limit near what is live.
 */
import { setFlagsFromString } from 'node:v8';

/** The default: a full collection once the heap has grown by half what the last one left live. */
export const DEFAULT_HEAP_GROWTH_PERCENT = 50;

/**
 * From the next full collection on, V8 lets the heap grow to 1 + percent/100 times what it left live (plus
 * its minimum step and the young generation); 0 leaves V8's own factor. Call it before the application
 * loads, so that the collections made while it loads set their limits with it.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
