import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { storeName } from '../../../src/core/snapshots/commandSnapshots';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { runCli, useCliRig } from './cliHarness';

const rig = useCliRig();

/** Folders under `dir`, at any depth, whose name ends with `suffix`. */
function foldersEnding(dir: string, suffix: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (entry.name.endsWith(suffix)) out.push(path);
    else out.push(...foldersEnding(path, suffix));
  }
  return out;
}

/** Waits until the early snapshot of `ws` is written (its index there, no snapshot under way): checked each turn of the event loop, no fixed delay. */
async function earlySnapshotWritten(home: string, ws: string): Promise<string> {
  for (;;) {
    const store = foldersEnding(home, '.snapshots').map((d) => join(d, storeName(ws))).find((s) => existsSync(join(s, 'index')));
    if (store && !existsSync(join(store, 'busy'))) return store;
    await tick(5);
  }
}

describe('keel run: the first snapshot, taken while the model still writes the first bash call', () => {
  it('does not count a file the person edits before the command runs as the command’s, and undo puts back the exact pre-command bytes', async () => {
    const ws = realpathSync(rig.box.ws);
    const theirs = Buffer.from('\ufeffmine, before\r\n');
    const commandTarget = Buffer.from('\ufeffline one\r\nline two\r\n');
    writeFileSync(join(ws, 'theirs.txt'), theirs);
    writeFileSync(join(ws, 'target.txt'), commandTarget);
    for (let i = 0; i < 30; i++) writeFileSync(join(ws, `other${i}.txt`), `${i}\n`);
    // The bash call's stream pauses right after the call is named (role chunk + its first delta).
    rig.server.load({ turns: [reply.tool('bash', { command: "sed -i 's/two/TWO/' target.txt" }, { holdAt: 'bash-call' }), reply.text('done')] });
    const run = runCli(rig.cli, ['run', '--cwd', ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', '--approval', 'yolo', 'change it'], { KEEL_HOME: rig.box.home });

    await rig.server.reached('bash-call');
    // Taken before the model has finished the call: the store is there while the stream waits.
    await earlySnapshotWritten(rig.box.home, ws);
    const edited = Buffer.from('\ufeffmine, edited while the model was writing\r\n');
    writeFileSync(join(ws, 'theirs.txt'), edited);
    rig.server.release('bash-call');

    const done = await run;
    expect(done.code, done.stderr).toBe(0);
    const result = done.lines.find((l) => l.type === 'tool_result');
    expect((result?.changes as Array<{ path: string; kind: string }>).map((c) => `${c.kind} ${c.path}`)).toEqual(['modified target.txt']);
    expect(readFileSync(join(ws, 'target.txt'), 'utf8')).toContain('line TWO');

    const sessionId = String(done.lines.at(-1)?.sessionId);
    const restored = await runCli(rig.cli, ['restore', '--cwd', ws, '--session', sessionId], { KEEL_HOME: rig.box.home });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('target.txt');
    expect(restored.stdout).not.toContain('theirs.txt');
    expect(readFileSync(join(ws, 'target.txt')).equals(commandTarget)).toBe(true);
    expect(readFileSync(join(ws, 'theirs.txt')).equals(edited)).toBe(true);
  }, 60_000);
});
