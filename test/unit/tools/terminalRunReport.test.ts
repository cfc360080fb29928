import { describe, expect, it } from 'vitest';
import { describeTerminalRun } from '../../../src/core/tools/process/terminalRunReport';
import type { TerminalRan } from '../../../src/core/tools/process/terminalRun';
import { textOf } from './toolTestKit';

const base: TerminalRan = { ran: true, terminalName: 'Keel', output: 'out\n', exitCode: 0, timedOut: false, cancelled: false };

describe('describeTerminalRun', () => {
  it('says a cancelled command was stopped, and how', () => {
    const result = describeTerminalRun({ ...base, exitCode: 130, cancelled: true, stopNote: 'Ctrl+C was sent to the terminal "Keel".' }, 1_000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Ran in the terminal "Keel".\n\nout\n\nCancelled. Ctrl+C was sent to the terminal "Keel".');
  });

  it('says when the terminal was closed under the command', () => {
    const result = describeTerminalRun({ ...base, exitCode: undefined, terminalClosed: true }, 1_000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/The terminal was closed while the command ran; its exit code is unknown\.$/);
  });

  it('says when the terminal reported no exit code, and shows "(no output)" for blank output', () => {
    const result = describeTerminalRun({ ...base, output: '\n\n', exitCode: undefined }, 1_000);
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('Ran in the terminal "Keel".\n\n(no output)\n\nThe terminal did not report an exit code.');
  });
});
