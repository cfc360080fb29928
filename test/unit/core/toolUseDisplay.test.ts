import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Context } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import { Project } from '../../../src/core/project';
import type { ProjectEvent } from '../../../src/core/projectTypes';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';

let server: ScriptedServer;
let dir: string;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-display-'));
  mkdirSync(join(dir, 'ws', 'src'), { recursive: true });
  mkdirSync(join(dir, 'home'));
  writeFileSync(join(dir, 'ws', 'src', 'a.ts'), 'export const a = 1;\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('tool_use events', () => {
  it('carry the card the offered tool drew; a call of a tool not offered comes without one', async () => {
    server.load({ turns: [reply.tools([{ name: 'read', arguments: { file_path: 'src/a.ts' } }, { name: 'tree', arguments: { path: 'src' } }, { name: 'nope', arguments: { x: 1 } }]), reply.text('done')] });
    const ctx = await Context.create({
      folders: [{ path: join(dir, 'ws') }],
      host: createFsHost(),
      env: { KEEL_HOME: join(dir, 'home') },
      overrides: [{ model: 'local/scripted', providers: { local: { baseURL: server.baseURL } } }],
    });
    const events: ProjectEvent[] = [];
    await new Project(ctx, ctx.sessions.create()).send('look', { onEvent: (e) => events.push(e) });
    const uses = events.flatMap((e) => (e.type === 'tool_use' ? [e] : []));
    expect(uses.map((e) => [e.name, e.display?.title, e.display?.summary, e.display?.details.kind])).toEqual([
      ['read', 'read', 'src/a.ts', 'fileChange'],
      ['tree', 'tree', 'src', 'keyValue'],
      ['nope', undefined, undefined, undefined],
    ]);
  });
});
