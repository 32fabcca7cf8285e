import { createHash } from 'node:crypto';

/**
 * Seeded randomness: a session draws one seed when it starts, and every randomised element (a block
 * randomizer, a block's questions, a question's choices) shuffles with a generator keyed by that seed and
 * the element's id. So a reload, the back button and the final record all see the same order.
 */
export function randomFor(seed: number, key: string): () => number {
  const digest = createHash('sha256').update(`${seed}:${key}`).digest();
  let state = digest.readUInt32LE(0) || 1;
  // mulberry32: small, fast and good enough for presentation order.
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher-Yates with the given generator; returns a new array. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const swap = out[i] as T;
    out[i] = out[j] as T;
    out[j] = swap;
  }
  return out;
}
