import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import { runCli, useCliRig } from './cliHarness';

const rig = useCliRig((box) => {
  writeFileSync(join(box.ws, 'app.ts'), 'export const answer = 41;\n');
});

function keel(turns: Turn[], args: string[], extraEnv: Record<string, string> = {}) {
  rig.server.load({ turns });
  return runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', ...args], {
    KEEL_HOME: rig.box.home,
    ...extraEnv,
  });
}

const ofType = (lines: Array<Record<string, unknown>>, type: string) => lines.filter((l) => l.type === type);

const readEditRun: Turn[] = [
  reply.tool('read', { file_path: 'app.ts' }),
  { ...reply.tool('edit', { file_path: 'app.ts', old_string: 'answer = 41', new_string: 'answer = 42' }), match: { lastToolResultIncludes: 'answer = 41' } },
  reply.tool('bash', { command: 'cat app.ts' }),
  { ...reply.text('Changed the answer to 42.'), match: { lastToolResultIncludes: 'answer = 42' } },
];

describe('keel run', () => {
  it('reads, edits and runs commands in yolo mode, reporting stream-json', async () => {
    const r = await keel(readEditRun, ['--approval', 'yolo', 'Fix the answer']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(rig.box.ws, 'app.ts'), 'utf8')).toBe('export const answer = 42;\n');
    expect(ofType(r.lines, 'tool_use').map((l) => l.name)).toEqual(['read', 'edit', 'bash']);
    expect(ofType(r.lines, 'approval').every((l) => l.approved === true)).toBe(true);
    const result = r.lines.at(-1)!;
    expect(result).toMatchObject({ type: 'result', success: true, turns: 4, text: 'Changed the answer to 42.' });
    expect((result.usage as { inputTokens: number }).inputTokens).toBeGreaterThan(0);
    expect(ofType(r.lines, 'text_delta').map((l) => l.text).join('')).toBe('Changed the answer to 42.');
    expect(rig.server.pendingTurns()).toBe(0);
  });

  it('in manual mode with no one to ask, denies the edit, reports it, and leaves the file alone', async () => {
    const r = await keel(
      [
        reply.tool('read', { file_path: 'app.ts' }),
        reply.tool('edit', { file_path: 'app.ts', old_string: 'answer = 41', new_string: 'answer = 42' }),
        { ...reply.text('You declined; nothing changed.'), match: { lastToolResultIncludes: 'declined' } },
      ],
      ['Fix the answer'],
    );
    expect(r.code).toBe(0);
    expect(readFileSync(join(rig.box.ws, 'app.ts'), 'utf8')).toBe('export const answer = 41;\n');
    const denied = ofType(r.lines, 'approval').find((l) => l.name === 'edit')!;
    expect(denied).toMatchObject({ approved: false, category: 'write' });
    expect(String(denied.reason)).toMatch(/no one was there to approve/);
    expect(ofType(r.lines, 'tool_result').find((l) => l.name === 'edit')).toMatchObject({ isError: true });
  });

  it('autoEdit writes without asking but still denies commands outside the OS sandbox', async () => {
    const r = await keel(
      [
        reply.tool('read', { file_path: 'app.ts' }),
        reply.tool('edit', { file_path: 'app.ts', old_string: '41', new_string: '43' }),
        reply.tool('bash', { command: 'touch ran.txt' }),
        reply.text('ok'),
      ],
      ['--approval', 'autoEdit', '--sandbox', 'off', 'go'],
    );
    expect(r.code).toBe(0);
    expect(readFileSync(join(rig.box.ws, 'app.ts'), 'utf8')).toContain('43');
    expect(ofType(r.lines, 'approval').find((l) => l.name === 'bash')).toMatchObject({ approved: false });
    expect(() => readFileSync(join(rig.box.ws, 'ran.txt'))).toThrow();
  });

  it('asks for protected paths even in yolo mode, so a headless run cannot change them', async () => {
    const r = await keel([reply.tool('write', { file_path: 'AGENTS.md', content: 'obey me' }), reply.text('ok')], ['--approval', 'yolo', 'x']);
    expect(r.code).toBe(0);
    expect(ofType(r.lines, 'approval')[0]).toMatchObject({ name: 'write', approved: false });
    expect(() => readFileSync(join(rig.box.ws, 'AGENTS.md'))).toThrow();
  });

  it('refuses paths outside the workspace with a clear tool error', async () => {
    const r = await keel([reply.tool('read', { file_path: '/etc/passwd' }), reply.text('could not')], ['x']);
    expect(r.code).toBe(0);
    const res = ofType(r.lines, 'tool_result')[0];
    expect(res.isError).toBe(true);
    expect(String(res.output)).toMatch(/outside the workspace/i);
    expect(String(res.output)).not.toContain('root:');
  });

  it('returns invalid tool input to the model as an error and goes on', async () => {
    const r = await keel([reply.tool('read', { path: 'app.ts' }), { ...reply.text('retrying properly'), match: { lastToolResultIncludes: 'Invalid input' } }], ['x']);
    expect(r.code).toBe(0);
    expect(String(ofType(r.lines, 'tool_result')[0].output)).toMatch(/file_path/);
  });

  it('plan mode offers only read-only tools and refuses a write', async () => {
    const r = await keel(
      [
        reply.tool('write', { file_path: 'new.ts', content: 'x' }),
        { ...reply.text('## Goal\nPlan only.'), match: { lastToolResultIncludes: 'Plan mode is read-only' } },
      ],
      ['--plan', '--approval', 'yolo', 'plan it'],
    );
    expect(r.code).toBe(0);
    const offered = ((rig.server.requests[0].body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((t) => t.function.name);
    expect(offered).toContain('read');
    expect(offered).not.toContain('write');
    expect(offered).not.toContain('bash');
    expect(() => readFileSync(join(rig.box.ws, 'new.ts'))).toThrow();
    const system = JSON.stringify(rig.server.requests[0].body);
    expect(system).toMatch(/plan mode/);
  });

  it('retries a rate limit and reports it', async () => {
    const r = await keel([reply.rateLimited(0), reply.text('hello')], ['x']);
    expect(r.code).toBe(0);
    expect(ofType(r.lines, 'retry')).toHaveLength(1);
    expect(r.lines.at(-1)).toMatchObject({ success: true, text: 'hello' });
  });

  it('exits 1 with an error line when the model keeps failing', async () => {
    const r = await keel([{ ...reply.status(400, { error: { message: 'model exploded', type: 'invalid_request_error' } }) }], ['x']);
    expect(r.code).toBe(1);
    expect(ofType(r.lines, 'error')[0]).toMatchObject({ code: 'model_error' });
    expect(String(ofType(r.lines, 'error')[0].message)).toMatch(/model exploded/);
    expect(r.lines.at(-1)).toMatchObject({ type: 'result', success: false });
  });

  it('exits 1 at the turn cap', async () => {
    const r = await keel([{ ...reply.tool('ls', { path: '.' }), repeat: 5 }], ['--max-turns', '2', 'x']);
    expect(r.code).toBe(1);
    expect(r.lines.at(-1)).toMatchObject({ success: false, status: 'max_turns', turns: 2 });
  });

  it('resumes a session with its history and lists sessions per workspace', async () => {
    const first = await keel([reply.text('First answer.')], ['remember the word pelican']);
    const sessionId = String(first.lines.at(-1)!.sessionId);
    const second = await keel([{ ...reply.text('It was pelican.'), match: { lastUserIncludes: 'which word' } }], ['--session', sessionId, 'which word?']);
    expect(second.code).toBe(0);
    const sent = JSON.stringify(rig.server.requests[0].body);
    expect(sent).toContain('remember the word pelican');
    expect(sent).toContain('First answer.');
    expect(second.lines.at(-1)!.sessionId).toBe(sessionId);

    const listed = await runCli(rig.cli, ['sessions', '--cwd', rig.box.ws], { KEEL_HOME: rig.box.home });
    expect(listed.code).toBe(0);
    const rows = listed.stdout.trim().split('\n');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(sessionId);
    expect(rows[0]).toContain('remember the word pelican');
    expect(rows[0]).toMatch(/\t4 messages\t/);

    const other = join(rig.box.dir, 'other');
    mkdirSync(other);
    const none = await runCli(rig.cli, ['sessions', '--cwd', other], { KEEL_HOME: rig.box.home });
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/No sessions/);
  });

  it('text output streams the answer on stdout and narrates tools on stderr', async () => {
    rig.server.load({ turns: [reply.tool('ls', { path: '.' }), reply.text('Listed.')] });
    const r = await runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, 'list'], { KEEL_HOME: rig.box.home });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Listed.\n');
    expect(r.stderr).toMatch(/▸ ls \./);
    expect(r.stderr).toMatch(/done in 2 turn/);
  });

  it('plan mode in text output says where the plan file is, and the file holds the plan', async () => {
    rig.server.load({ turns: [reply.text('## Steps\n1. Change app.ts')] });
    const r = await runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--plan', 'plan it'], {
      KEEL_HOME: rig.box.home,
    });
    expect(r.code).toBe(0);
    const path = /keel: plan saved as (.+\.plans[\\/]plan-1\.md)\n/.exec(r.stderr)?.[1];
    expect(path, r.stderr).toBeDefined();
    expect(readFileSync(path!, 'utf8')).toBe('## Steps\n1. Change app.ts');
  });

  it('reads the prompt from stdin with "-"', async () => {
    rig.server.load({ turns: [{ ...reply.text('got it'), match: { lastUserIncludes: 'from a pipe' } }] });
    const r = await runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'm', '--base-url', rig.server.baseURL, '-'], { KEEL_HOME: rig.box.home }, 'prompt from a pipe\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('got it');
  });
});

describe('keel usage and configuration errors', () => {
  it('exits 2 and explains how to configure a model when none is set', async () => {
    const r = await runCli(rig.cli, ['run', '--cwd', rig.box.ws, 'hello'], { KEEL_HOME: rig.box.home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/No model is configured/);
    expect(r.stderr).toMatch(/--base-url/);
  });

  it('exits 2 on bad flags', async () => {
    expect((await runCli(rig.cli, ['run', '--approval', 'always', 'x'], { KEEL_HOME: rig.box.home })).code).toBe(2);
    expect((await runCli(rig.cli, ['run', '--max-turns', '0', 'x'], { KEEL_HOME: rig.box.home })).code).toBe(2);
    expect((await runCli(rig.cli, ['frobnicate'], { KEEL_HOME: rig.box.home })).code).toBe(2);
    const bad = await runCli(rig.cli, ['run', '--bogus', 'x'], { KEEL_HOME: rig.box.home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Usage:/);
  });

  it('exits 2 for a session id that is not in this workspace', async () => {
    rig.server.load({ turns: [] });
    const r = await runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'm', '--base-url', rig.server.baseURL, '--session', '20260101-000000-deadbeef', 'x'], {
      KEEL_HOME: rig.box.home,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/No session "20260101-000000-deadbeef"/);
  });

  it('exits 2 and names the file when the config is broken', async () => {
    writeFileSync(join(rig.box.home, 'config.json'), '{"approvalMode": "sometimes"}');
    const r = await runCli(rig.cli, ['run', '--cwd', rig.box.ws, 'x'], { KEEL_HOME: rig.box.home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/config\.json is invalid: approvalMode/);
  });
});
