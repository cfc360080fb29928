import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Context } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import { Project } from '../../../src/core/project';
import type { ApprovalAnswer, ApprovalRequest } from '../../../src/core/tools/tool';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { requireRealSandbox } from './sandboxFixture';

// An allow rule allows reading (issue 20): the way from a read-only failure to the person's approval.
let server: ScriptedServer;
let dir: string;
let ws: string;
const projects: Project[] = [];

beforeAll(async () => {
  await requireRealSandbox();
  server = await startScriptedServer();
});
afterAll(() => server?.close());
beforeEach(() => {
  // Not under /tmp: the sandbox's private /tmp must not be what hides the workspace.
  dir = realpathSync(mkdtempSync('/var/tmp/keel-allow-write-'));
  ws = join(dir, 'ws');
  mkdirSync(ws);
  mkdirSync(join(dir, 'home'));
  writeFileSync(join(ws, 'data.txt'), 'b\na\n');
});
afterEach(async () => {
  await Promise.all(projects.splice(0).map((p) => p.dispose()));
  rmSync(dir, { recursive: true, force: true });
});

const toolOutputs = () =>
  server.requests
    .flatMap((r) => r.body.messages as Array<{ role: string; content: unknown }>)
    .filter((m) => m.role === 'tool')
    .map((m) => JSON.stringify(m.content));

describe('a command allowed by a rule, in manual mode with the OS sandbox', () => {
  it('fails to write, is told to ask, and with the write access the person approves it writes', async () => {
    server.load({
      turns: [
        reply.tool('bash', { command: 'sort -o sorted.txt data.txt' }),
        reply.tool('bash', { command: 'sort -o sorted.txt data.txt', writable: true }),
        reply.text('done'),
      ],
    });
    const ctx = await Context.create({
      folders: [{ path: ws }],
      host: createFsHost(),
      env: { KEEL_HOME: join(dir, 'home') },
      overrides: [
        { model: 'local/scripted', providers: { local: { baseURL: server.baseURL } }, approvalMode: 'manual', sandbox: 'auto', commands: { allow: ['sort'], deny: [] } },
      ],
    });
    const p = new Project(ctx, ctx.sessions.create());
    projects.push(p);
    const asked: ApprovalRequest[] = [];
    await p.send('go', {
      onEvent: () => undefined,
      onToolApprove: async (r: ApprovalRequest): Promise<ApprovalAnswer> => {
        asked.push(r);
        return { approved: true, scope: 'once' };
      },
    });
    // The first call ran unasked, read-only; only the second, asking to write, reached the person.
    expect(asked).toHaveLength(1);
    expect(asked[0].writeAccess).toBe(true);
    expect(asked[0].rule).toMatch(/write access/);
    expect(asked[0].allowPrefixes).toBeUndefined();
    const outputs = toolOutputs();
    expect(outputs[0]).toMatch(/the whole workspace was read-only/);
    expect(outputs[0]).toMatch(/writable: true/);
    expect(existsSync(join(ws, 'sorted.txt'))).toBe(true);
    expect(readFileSync(join(ws, 'sorted.txt'), 'utf8')).toBe('a\nb\n');
  });
});
