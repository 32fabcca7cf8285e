import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core, the engine run in the page (a dev dependency: nothing is fetched). */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Finding {
  rule: string;
  impact: string;
  nodes: string[];
}

/** axe-core's serious and critical violations on the page as it is now (every rule it has). */
export async function seriousViolations(page: Page): Promise<Finding[]> {
  // Evaluated through the DevTools protocol: the pages' Content-Security-Policy allows no inline script.
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run()).violations as {
      id: string;
      impact: string;
      nodes: { target: string[] }[];
    }[];
  });
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}
