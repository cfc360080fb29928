import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { buildCli } from '../cli/cliHarness';
// @ts-expect-error: a plain .mjs script of the action, without types
import { jobSummary, parseStream } from '../../../scripts/action/jobSummary.mjs';

const entry = resolve(__dirname, '../../../scripts/action/keelAction.mjs');
const gitEnv = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...gitEnv } }).trim();

let cli: string;
let server: ScriptedServer;
let dir: string;
let ws: string;
let remote: string;

beforeAll(async () => {
  cli = await buildCli();
  server = await startScriptedServer();
}, 60_000);
afterAll(() => server.close());

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-action-'));
  remote = join(dir, 'origin.git');
  ws = join(dir, 'checkout');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
  mkdirSync(ws);
  writeFileSync(join(ws, 'app.ts'), 'export const answer = 41;\n');
  git(ws, 'init', '-q', '-b', 'main');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'first');
  git(ws, 'remote', 'add', 'origin', remote);
  git(ws, 'push', '-q', 'origin', 'main');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function runAction(env: Record<string, string>): Promise<{ code: number | null; stderr: string; summary: string; outputs: Record<string, string> }> {
  const summaryFile = join(dir, 'summary.md');
  const outputFile = join(dir, 'outputs.txt');
  writeFileSync(summaryFile, '');
  writeFileSync(outputFile, '');
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [entry], {
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        ...gitEnv,
        KEEL_HOME: join(dir, 'keel-home'),
        KEEL_CLI: cli,
        GITHUB_WORKSPACE: ws,
        GITHUB_STEP_SUMMARY: summaryFile,
        GITHUB_OUTPUT: outputFile,
        GITHUB_RUN_ID: '123',
        GITHUB_RUN_ATTEMPT: '1',
        RUNNER_TEMP: dir,
        KEEL_MODEL: 'scripted-model',
        KEEL_BASE_URL: server.baseURL,
        KEEL_SANDBOX: 'on',
        OPENAI_API_KEY: 'test-key',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const outputs = Object.fromEntries(
        readFileSync(outputFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      done({ code, stderr, summary: readFileSync(summaryFile, 'utf8'), outputs });
    });
  });
}

const fixTurns = [
  reply.tool('read', { file_path: 'app.ts' }),
  reply.tool('edit', { file_path: 'app.ts', old_string: 'answer = 41', new_string: 'answer = 42' }),
  { ...reply.text('Changed the answer to 42.'), match: { lastToolResultIncludes: 'Edited app.ts' } },
];

describe('the GitHub Action entry script', { timeout: 120_000 }, () => {
  it('runs the task, commits the change to its own branch, pushes it, and writes the job summary', async () => {
    server.load({ turns: fixTurns });
    const r = await runAction({ KEEL_PROMPT: 'Fix the answer in app.ts' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.outputs).toMatchObject({ branch: 'keel/run-123-1', changed: 'true', status: 'completed' });
    // The branch reached the remote with exactly the agent's change; main there is untouched.
    expect(git(remote, 'show', 'keel/run-123-1:app.ts')).toBe('export const answer = 42;');
    expect(git(remote, 'show', 'main:app.ts')).toBe('export const answer = 41;');
    expect(git(remote, 'log', '-1', '--format=%s', 'keel/run-123-1')).toBe('keel: Fix the answer in app.ts');
    expect(r.summary).toContain('## Keel: Fix the answer in app.ts');
    expect(r.summary).toContain('✅ completed');
    expect(r.summary).toMatch(/\| modified \| `app\.ts` \|/);
    expect(r.summary).toMatch(/\| edit \| app\.ts \| ok \|/);
    expect(r.summary).toContain('Changed the answer to 42.');
    expect(readFileSync(r.outputs.transcript, 'utf8')).toContain('"type":"result"');
  });

  it('takes the task from the issue that triggered the workflow', async () => {
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ issue: { number: 7, title: 'Answer is off by one', body: 'It should be 42.' } }));
    server.load({ turns: [reply.text('Looked; nothing to change.')] });
    const r = await runAction({ GITHUB_EVENT_PATH: event, KEEL_JOB_INDEX: '2' });
    expect(r.code, r.stderr).toBe(0);
    const asked = JSON.stringify(server.requests[0].body.messages.at(-1));
    expect(asked).toContain('Issue #7: Answer is off by one');
    expect(asked).toContain('It should be 42.');
    expect(r.outputs).toMatchObject({ branch: 'keel/run-123-1-2', changed: 'false' });
    expect(r.summary).toContain('no changes, nothing committed');
    expect(git(remote, 'branch', '--list', 'keel/*')).toBe('');
  });

  it('fails the job and says why when the model cannot be reached, committing nothing', async () => {
    server.load({ turns: [reply.status(401, { error: { message: 'bad key', type: 'invalid_request_error' } })] });
    const r = await runAction({ KEEL_PROMPT: 'Fix it' });
    expect(r.code).toBe(1);
    expect(r.outputs).toMatchObject({ changed: 'false', status: 'error' });
    expect(r.summary).toContain('❌ error');
    expect(r.summary).toContain('bad key');
  });

  it('refuses to start without a task', async () => {
    const r = await runAction({});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no task');
  });
});

describe('jobSummary', () => {
  it('escapes table cells and shows declined tools with their reason', () => {
    const events = parseStream(
      [
        '{"type":"tool_use","id":"a","name":"bash","input":{"command":"echo a | tee x"}}',
        '{"type":"approval","id":"a","name":"bash","approved":false,"reason":"no one was there to approve"}',
        'not json',
        '{"type":"result","success":false,"status":"max_turns","turns":50,"usage":{"inputTokens":1,"outputTokens":2},"sessionId":"s1","text":""}',
      ].join('\n'),
    );
    const md = jobSummary({ prompt: 'Do | things', events, branch: 'keel/x', files: [], committed: false });
    expect(md).toContain('## Keel: Do \\| things');
    expect(md).toContain('❌ max_turns');
    expect(md).toContain('| bash | echo a \\| tee x | declined: no one was there to approve |');
  });
});
