import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { buildCli, runCli, sandbox } from './cliHarness';
import { workspaceContext } from '../../integration/suite/support/modelRequests';

// keel run --add-dir: more folders for one run; the --cwd folder stays current and owns the session.
let cli: string;
let server: ScriptedServer;
let box: ReturnType<typeof sandbox>;
let lib: string;

beforeAll(async () => {
  cli = await buildCli();
  server = await startScriptedServer();
}, 60_000);
afterAll(() => server.close());
beforeEach(() => {
  box = sandbox();
  lib = join(box.dir, 'lib');
  mkdirSync(lib);
  writeFileSync(join(lib, 'util.ts'), 'export const shared = "from lib";\n');
  writeFileSync(join(box.ws, 'app.ts'), 'export const app = 1;\n');
  writeFileSync(join(box.dir, 'secret.txt'), 'top secret\n');
});
afterEach(() => rmSync(box.dir, { recursive: true, force: true }));

const ofType = (lines: Array<Record<string, unknown>>, type: string) => lines.filter((l) => l.type === type);

describe('keel run --add-dir', () => {
  it('reads and writes in the added folder by its name, refuses what lies outside both, and keeps the session under --cwd', async () => {
    server.load({
      turns: [
        reply.tool('read', { file_path: 'lib/util.ts' }),
        { ...reply.tool('write', { file_path: 'lib/extra.ts', content: 'export const extra = 2;\n' }), match: { lastToolResultIncludes: 'from lib' } },
        reply.tool('read', { file_path: '../secret.txt' }),
        reply.text('done'),
      ],
    });
    const r = await runCli(
      cli,
      ['run', '--cwd', box.ws, '--add-dir', lib, '--approval', 'yolo', '--model', 'scripted-model', '--base-url', server.baseURL, '--output', 'stream-json', 'use the lib'],
      { KEEL_HOME: box.home },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(lib, 'extra.ts'), 'utf8')).toBe('export const extra = 2;\n');
    const results = ofType(r.lines, 'tool_result');
    expect(results.map((l) => l.isError === true)).toEqual([false, false, true]);
    expect(String(results[2].output)).toMatch(/outside the workspace/);
    expect(String(results[2].output)).toContain(`lib (${lib})`);
    expect(String(results[2].output)).not.toContain('top secret');

    const system = workspaceContext(server.requests[0]);
    expect(system).toContain(`- ws (current project): ${box.ws}`);
    expect(system).toContain(`- lib: ${lib}`);

    const sessionId = r.lines.at(-1)?.sessionId;
    const listed = await runCli(cli, ['sessions', '--cwd', box.ws, '--json'], { KEEL_HOME: box.home });
    expect(listed.stdout).toContain(String(sessionId));
  });

  it('fails clearly for an added folder that does not exist', async () => {
    const r = await runCli(cli, ['run', '--cwd', box.ws, '--add-dir', join(box.dir, 'nope'), '--model', 'm', '--base-url', server.baseURL, 'x'], {
      KEEL_HOME: box.home,
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/nope/);
  });
});
