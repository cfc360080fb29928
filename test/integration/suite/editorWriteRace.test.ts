/// <reference types="mocha" />
// Keel's own writes in VS Code while a sandboxed command swaps the folder being written with a
// link out of the workspace (renameat2 RENAME_EXCHANGE, as fast as it can): the editor's save
// goes by name and would follow the link, so while a sandboxed process runs Keel writes through
// a descriptor of the checked folder and refuses when what it opened is not what it checked.
import * as assert from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from './support/chatFixture';
import { keelHomeForRun, setApprovalMode, setSandbox, workspaceFolder } from './support/keelSetup';
import { until } from './support/waiting';

keelHomeForRun();

/** Swaps `dir` with the link `out` and back until the file `stop` appears; prints `racing` first, writes `stopped` last. */
const racer = `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
print('racing', flush=True)
while not os.path.exists('stop'):
    libc.renameat2(-100, b'dir', -100, b'out', 2)
    libc.renameat2(-100, b'dir', -100, b'out', 2)
open('stopped', 'w').close()
`;

describe("Keel's writes in VS Code while a sandboxed command swaps folders", function () {
  this.timeout(240_000);
  const chat = useConfiguredChat();
  let race: string;
  let outside: string;

  before(async () => {
    race = join(workspaceFolder(), 'editor-race');
    mkdirSync(join(race, 'dir'), { recursive: true });
    outside = mkdtempSync(join(tmpdir(), 'keel-editor-race-outside-'));
    symlinkSync(outside, join(race, 'out'));
    writeFileSync(join(race, 'racer.py'), racer);
    await setSandbox('on');
    await setApprovalMode('yolo');
    await chat.page.waitFor(() => chat.page.run?.approvalMode === 'yolo', 'approval mode yolo in the chat');
  });
  after(async () => {
    if (race) writeFileSync(join(race, 'stop'), '');
    if (race) await until(() => existsSync(join(race, 'stopped')), 'the racer to stop', 30_000);
    rmSync(race, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
    await setApprovalMode(undefined);
    await setSandbox(undefined);
  });

  it('no write lands outside the workspace, and the ones the swap would redirect are refused', async () => {
    const turns = 8;
    const perTurn = 10;
    const writes = Array.from({ length: turns }, (_, t) =>
      reply.tools(Array.from({ length: perTurn }, (_, k) => ({ name: 'write', arguments: { file_path: `editor-race/dir/note-${t * perTurn + k}.txt`, content: 'x\n' } }))),
    );
    chat.server.load({ turns: [reply.tool('bash', { command: 'cd editor-race && python3 racer.py', run_in_background: true }), ...writes, reply.text('done')] });
    await chat.page.sendAndSettle('go', 180_000);
    writeFileSync(join(race, 'stop'), '');
    await until(() => existsSync(join(race, 'stopped')), 'the racer to stop', 30_000);

    const results = chat.page.toolCalls().filter((c) => c.name === 'write').map((c) => c.result?.output ?? '');
    assert.strictEqual(results.length, turns * perTurn);
    assert.deepStrictEqual(readdirSync(outside), [], 'nothing was written outside the workspace');
    const refused = results.filter((r) => /since Keel checked it .*nothing was written/.test(r));
    assert.ok(refused.length > 0, `some writes were refused as redirected: ${results.slice(0, 5).join(' | ')}`);
    const landed = readdirSync(join(race, 'dir')).filter((n) => n.startsWith('note-'));
    assert.ok(landed.length > 0, 'some writes landed in the folder, wherever its name was at the time');
  });
});
