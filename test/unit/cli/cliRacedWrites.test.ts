import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { folderSwapRacer } from '../sandbox/folderSwapRacer';
import { requireRealSandbox } from '../sandbox/sandboxFixture';
import { runCli, useCliRig } from './cliHarness';

const rig = useCliRig((box) => {
  mkdirSync(join(box.ws, 'dir'));
  mkdirSync(join(box.ws, '.vscode'));
  writeFileSync(join(box.ws, '.vscode', 'settings.json'), '{}\n');
  mkdirSync(join(box.dir, 'outside'));
  symlinkSync(join(box.dir, 'outside'), join(box.ws, 'out'));
  symlinkSync('.vscode', join(box.ws, 'vs'));
  writeFileSync(join(box.ws, 'racer.py'), folderSwapRacer);
  execFileSync('git', ['init', '-q'], { cwd: box.ws });
});

/** Every file named note-*.txt anywhere under `root`, links not followed. */
function notesUnder(root: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) found.push(...notesUnder(path));
    else if (entry.isFile() && /^note-\d+\.txt$/.test(entry.name)) found.push(path);
  }
  return found;
}

describe("Keel's own writes cannot be redirected (reproduction 5, real bubblewrap)", () => {
  beforeAll(requireRealSandbox);

  it('while a background command swaps the folder with links, no write lands outside the workspace or in .vscode', async () => {
    const turns = 16;
    const perTurn = 10;
    const writes = Array.from({ length: turns }, (_, t) =>
      reply.tools(Array.from({ length: perTurn }, (_, k) => ({ name: 'write', arguments: { file_path: `dir/note-${t * perTurn + k}.txt`, content: 'x\n' } }))),
    );
    rig.server.load({ turns: [reply.tool('bash', { command: 'python3 racer.py', run_in_background: true }), ...writes, reply.text('done')] });
    const r = await runCli(
      rig.cli,
      ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', '--approval', 'autoEdit', 'go'],
      { KEEL_HOME: rig.box.home },
    );
    expect(r.code, r.stderr).toBe(0);
    const started = r.lines.find((l) => l.type === 'tool_result' && l.name === 'bash');
    expect(String(started?.output)).toMatch(/racing/);

    expect(readdirSync(join(rig.box.dir, 'outside'))).toEqual([]);
    expect(readdirSync(join(rig.box.ws, '.vscode'))).toEqual(['settings.json']);
    expect(readFileSync(join(rig.box.ws, '.vscode', 'settings.json'), 'utf8')).toBe('{}\n');
    // The links are still links (nothing was written through them), and the race was real:
    // some writes landed in the folder, wherever its name was at the time.
    for (const link of ['out', 'vs', 'dir']) {
      const path = join(rig.box.ws, link);
      if (lstatSync(path).isSymbolicLink()) continue;
      expect(lstatSync(path).isDirectory()).toBe(true);
    }
    const landed = notesUnder(rig.box.ws).filter((p) => !p.includes(`${join(rig.box.ws, '.vscode')}/`));
    expect(landed.length).toBeGreaterThan(0);
  }, 120_000);
});
