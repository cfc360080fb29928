import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorktree } from '../../../src/core/worktrees/gitWorktree';
import type { Worktree } from '../../../src/core/worktrees/gitWorktree';
import type { ToolApprovalRequest, ToolApprovalAnswer } from '../../../src/protocol/toolApproval';
import type { UiMessage, UiPart } from '../../../src/protocol/uiMessage';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { settle, until } from '../chat/chatHarness';
import type { ChatRig, Page } from '../chat/chatHarness';
import { useChatRig } from '../chat/chatSuite';

const rigs = useChatRig();

/** A web page for the fetch tool, served on 127.0.0.1. */
const PAGE = '<!doctype html><html><head><title>Greetings</title></head><body><h1>Hello page</h1><p>Served for the fetch card.</p></body></html>';
let pages: Server;
let pageUrl: string;
beforeAll(async () => {
  pages = createServer((req, res) => {
    if (req.url !== '/greeting') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such page');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/greeting`;
});
afterAll(() => new Promise<void>((resolve, reject) => pages.close((err) => (err ? reject(err) : resolve()))));

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.invalid' };

/** The workspace as a git checkout with one commit, and a worktree of it the conversation works in. */
async function worktreeOf(chat: ChatRig): Promise<Worktree> {
  for (const args of [['init', '-q'], ['add', '-A'], ['commit', '-q', '-m', 'base']]) execFileSync('git', args, { cwd: chat.workspace, env: gitEnv });
  const wt = await createWorktree({ dir: chat.workspace, root: join(chat.home, 'worktrees'), name: 'everything' });
  await chat.controller.sessions.newSession({ core: chat.worktrees!.sourceFor(wt), branch: wt.branch });
  return wt;
}

const PLAN = '## Goal\nGreet.\n\n## Steps\n1. Read hello.txt\n2. Say hello\n\n## Risks\nNone.\n\n## Verification\nLook.';

/** Approves everything but the edit, which the person rejects. */
function answer(request: ToolApprovalRequest): ToolApprovalAnswer {
  return request.tool === 'edit' ? { approved: false } : { approved: true, scope: 'once' };
}

async function idle(chat: ChatRig): Promise<void> {
  await until(() => !chat.controller.isRunning, 'run end');
  await settle();
}

function kinds(messages: readonly UiMessage[]): string[] {
  const seen = new Set<string>();
  for (const part of messages.flatMap((m) => m.parts)) seen.add(part.type === 'toolCall' ? `toolCall:${part.name}:${part.state}` : part.type);
  return [...seen].sort();
}

const calls = (messages: readonly UiMessage[]) => messages.flatMap((m) => m.parts).filter((p): p is Extract<UiPart, { type: 'toolCall' }> => p.type === 'toolCall');

/** A conversation with every kind of part, in a worktree, streamed to a page over the bus from the scripted server. */
async function everyKindOfPart(): Promise<{ chat: ChatRig; page: Page; wt: Worktree }> {
  const chat = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model', approvalMode: 'manual' }, { worktrees: true });
  mkdirSync(join(chat.workspace, '.keel'));
  writeFileSync(
    join(chat.workspace, '.keel', 'rules.json'),
    JSON.stringify({
      rules: [
        { id: 'on-prompt', on: 'prompt_submit', actions: [{ type: 'notify', text: 'A prompt came in.' }] },
        { id: 'after-write', on: 'tool_result', if: 'event.tool == "write"', actions: [{ type: 'notify', text: 'Wrote {{event.path}}.' }] },
      ],
    }),
  );
  const wt = await worktreeOf(chat);
  rigs.server.load({
    turns: [
      {
        reasoning: 'First I look around.',
        text: 'Looking.',
        toolCalls: [
          { name: 'read', arguments: { file_path: 'hello.txt' } },
          { name: 'grep', arguments: { pattern: 'hello' } },
          { name: 'glob', arguments: { pattern: '*.txt' } },
          { name: 'ls', arguments: { path: '.' } },
        ],
      },
      reply.tool('fetch', { url: pageUrl }),
      reply.tool('write', { file_path: 'notes.md', content: '# Notes\n' }),
      reply.tool('edit', { file_path: 'hello.txt', old_string: 'hello', new_string: 'HELLO' }),
      reply.tool('bash', { command: 'echo made > made.txt' }),
      reply.tool('todo_write', { todos: [{ id: '1', content: 'Greet', status: 'completed' }] }),
      reply.tool('todo_read', {}),
      reply.tool('history_search', { query: 'everything' }),
      reply.tool('bash', { command: 'sleep 30', run_in_background: true }),
      reply.tool('bash_output', { id: 'bash_1' }),
      reply.tool('kill_bash', { id: 'bash_1' }),
      reply.text('All done.', { chunkSize: 3 }),
      // The compaction's summary.
      reply.text('The person asked for everything; it was done.'),
      // Plan mode, then the plan executed.
      reply.text(PLAN),
      reply.text('Executed the plan.'),
    ],
  });
  const page = chat.openPage(answer);
  await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
  await page.bus.request('session.send', { text: 'do everything', mentions: [{ kind: 'file', path: 'hello.txt' }] });
  await idle(chat);
  await page.bus.request('session.compact', {});
  await idle(chat);
  await page.bus.request('session.send', { text: 'plan a greeting', mode: 'plan' });
  await idle(chat);
  await page.bus.request('plan.execute', { planId: 'plan-1' });
  await idle(chat);
  return { chat, page, wt };
}

describe('one fold of the conversation', () => {
  it('the page streamed live equals the host snapshot, which equals the conversation rebuilt from the log', async () => {
    const { chat, page, wt } = await everyKindOfPart();
    const live = page.store.messages;
    expect(kinds(live)).toEqual([
      'compaction',
      'mention',
      'planExecution',
      'reasoning',
      'text',
      'toolCall:bash:done',
      'toolCall:bash_output:done',
      'toolCall:edit:rejected',
      'toolCall:fetch:done',
      'toolCall:glob:done',
      'toolCall:grep:done',
      'toolCall:history_search:done',
      'toolCall:kill_bash:done',
      'toolCall:ls:done',
      'toolCall:read:done',
      'toolCall:todo_read:done',
      'toolCall:todo_write:done',
      'toolCall:write:done',
    ]);
    // File changes, command changes and fired rules are on their cards and turns.
    const byName = new Map(calls(live).reverse().map((c) => [c.name, c]));
    expect(byName.get('write')!.change).toMatchObject({ displayPath: 'notes.md', kind: 'create', reverted: false });
    // The fetched page is on its card; the conversation worked in the worktree, not the checkout.
    expect(byName.get('fetch')!.display.details).toEqual({ kind: 'fetchedPage', url: pageUrl });
    expect(byName.get('fetch')!.result?.output).toContain('Hello page');
    expect(readFileSync(join(wt.path, 'notes.md'), 'utf8')).toBe('# Notes\n');
    expect(existsSync(join(chat.workspace, 'notes.md'))).toBe(false);
    expect(page.store.snapshot!.session.branch).toBe(wt.branch);
    // (the first bash call made a file; the second ran in the background until kill_bash ended it)
    expect(byName.get('bash')!.files?.map((f) => [f.displayPath, f.kind])).toEqual([['made.txt', 'added']]);
    expect(live.flatMap((m) => m.rules ?? []).map((r) => r.id).sort()).toEqual(['after-write', 'builtin.plan-confirm', 'on-prompt', 'on-prompt', 'on-prompt']);
    expect(live.some((m) => m.parts.some((p) => p.type === 'mention' && p.note?.status === undefined))).toBe(true);
    expect(live).toEqual(chat.controller.messages());

    // A reloaded page gets the host's snapshot.
    const reloaded = page.reload(answer);
    await until(() => reloaded.store.snapshot !== undefined, 'snapshot after reload');
    expect(reloaded.store.messages).toEqual(live);
    expect(reloaded.store.snapshot!.session).toEqual(page.store.named('session').at(-1));

    // The conversation rebuilt from its log.
    const session = reloaded.store.snapshot!.session.id!;
    await reloaded.bus.request('session.new', {});
    await reloaded.bus.request('sessions.resume', { id: session });
    await settle();
    // Ids, parts, states and times are the same: a message shows the time its log record has.
    expect(reloaded.store.messages).toEqual(live);
    expect(calls(reloaded.store.messages).length).toBe(calls(live).length);
    // Still the worktree's conversation.
    expect(reloaded.store.snapshot!.session).toMatchObject({ id: session, branch: wt.branch });
    expect(chat.worktrees!.worktreeOf(chat.controller.coreInView())).toEqual(wt);
  });
});
