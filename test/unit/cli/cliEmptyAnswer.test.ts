// Issue #11, reproduction 6: an empty model answer (no text, no tool call) is an error, retried
// like other transient provider faults, never a silent success.
import { describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import { runCli, useCliRig } from './cliHarness';

const rig = useCliRig();
const ofType = (lines: Array<Record<string, unknown>>, type: string) => lines.filter((l) => l.type === type);

function keel(turns: Turn[], output: 'text' | 'stream-json') {
  rig.server.load({ turns });
  return runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', output, 'hi'], {
    KEEL_HOME: rig.box.home,
  });
}

describe('an empty model answer', () => {
  it('is retried, and a real answer after it completes the run', async () => {
    const r = await keel([reply.text(''), reply.text('here it is')], 'stream-json');
    expect(r.code).toBe(0);
    expect(ofType(r.lines, 'retry')).toEqual([expect.objectContaining({ attempt: 1, error: expect.stringContaining('empty answer') })]);
    expect(r.lines.at(-1)).toMatchObject({ type: 'result', success: true, text: 'here it is' });
  });

  it('that persists ends the run with an error event and exit 1 (reasoning alone is no answer either)', async () => {
    const r = await keel([{ ...reply.text('', { reasoning: 'thinking, but saying nothing' }), repeat: 5 }], 'stream-json');
    expect(r.code).toBe(1);
    expect(ofType(r.lines, 'retry')).toHaveLength(4);
    const [error] = ofType(r.lines, 'error');
    expect(error).toMatchObject({ type: 'error', code: 'model_error' });
    expect(String(error.message)).toMatch(/The model sent an empty answer \(no text and no tool call\)/);
    expect(r.lines.at(-1)).toMatchObject({ type: 'result', success: false, status: 'error' });
    expect(rig.server.pendingTurns()).toBe(0);
  }, 90_000);
});
