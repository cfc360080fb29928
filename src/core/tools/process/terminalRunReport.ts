import { errorResult, textResult, type ToolResult } from '../tool';
import type { TerminalRan } from './terminalRun';

/** The bash tool's result for a command that ran in the editor's terminal. */
export function describeTerminalRun(run: TerminalRan, timeoutMs: number): ToolResult {
  const output = run.output.trim() === '' ? '(no output)' : run.output.replace(/\n+$/, '');
  const parts = [`Ran in the terminal "${run.terminalName}".`, output];
  const stopped = run.stopNote ? ` ${run.stopNote}` : '';
  if (run.timedOut) {
    parts.push(`Timed out after ${timeoutMs} ms.${stopped}`);
    return errorResult(parts.join('\n\n'));
  }
  if (run.cancelled) {
    parts.push(`Cancelled.${stopped}`);
    return errorResult(parts.join('\n\n'));
  }
  if (run.terminalClosed) {
    parts.push('The terminal was closed while the command ran; its exit code is unknown.');
    return errorResult(parts.join('\n\n'));
  }
  parts.push(run.exitCode !== undefined ? `Exit code: ${run.exitCode}` : 'The terminal did not report an exit code.');
  return textResult(parts.join('\n\n'));
}
