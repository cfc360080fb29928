// An accessibility check of Keel's webview with axe-core, run inside the webview's frame
// (the frame's CSP does not apply to what the test evaluates through the browser's protocol).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame } from 'playwright-core';

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

let source: string | undefined;

function axeSource(): string {
  source ??= readFileSync(createRequire(`${process.cwd()}/package.json`).resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

/** The serious and critical violations in the frame's document (colour contrast included). */
export async function seriousViolations(frame: Frame): Promise<AxeFinding[]> {
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(axeSource());
  return frame.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact?: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact ?? '',
        help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => `${JSON.stringify(n.target)}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`),
      }));
  });
}
