import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Context } from '../../../src/core/context';
import type { ContextOptions } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import { Project } from '../../../src/core/project';
import type { ProjectEvent } from '../../../src/core/projectTypes';
import { RunQueue } from '../../../src/core/runQueue';
import type { QueuedRun, RunTurn } from '../../../src/core/runQueue';
import type { ApprovalAnswer, ApprovalRequest } from '../../../src/core/tools/tool';
import type { KeelPlugin } from '../../../src/core/plugins/pluginTypes';
import { isContextBlock } from '../../../src/core/llmsContext/contextBlock';
import { defineTool } from '../../../src/core/tools/tool';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';

let server: ScriptedServer;
let dir: string;
let ws: string;
let home: string;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-project-'));
  ws = join(dir, 'ws');
  home = join(dir, 'home');
  mkdirSync(ws);
  mkdirSync(home);
  writeFileSync(join(ws, 'a.txt'), 'alpha\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function project(turns: Turn[], over: Partial<ContextOptions> = {}) {
  server.load({ turns });
  const ctx = await Context.create({
    folders: [{ path: ws }],
    host: createFsHost(),
    env: { KEEL_HOME: home },
    overrides: [{ model: 'local/scripted', providers: { local: { baseURL: server.baseURL } } }],
    ...over,
  });
  const session = ctx.sessions.create();
  return { ctx, session, project: new Project(ctx, session) };
}

function recorder(answers: Array<Partial<ApprovalAnswer>> = []) {
  const asked: ApprovalRequest[] = [];
  const events: ProjectEvent[] = [];
  return {
    asked,
    events,
    onEvent: (e: ProjectEvent) => events.push(e),
    onToolApprove: async (r: ApprovalRequest): Promise<ApprovalAnswer> => {
      asked.push(r);
      return { approved: false, ...answers.shift() };
    },
  };
}

/** What the person said in a user message, without the workspace context Keel attached. */
const personText = (content: unknown) =>
  typeof content === 'string' ? content : (content as { type: string; text?: string }[]).flatMap((p) => (p.type === 'text' && p.text && !isContextBlock(p.text) ? [p.text] : [])).join('');
const lastToolText = () => JSON.stringify(server.requests.at(-1)?.body.messages.at(-1));

describe('Project.send', () => {
  it('asks before running a command and passes the decline reason to the model', async () => {
    const { project: p } = await project([reply.tool('bash', { command: 'rm -rf build' }), reply.text('understood')]);
    const r = recorder([{ approved: false, reason: 'not now' }]);
    const result = await p.send('clean up', r);
    expect(result.status).toBe('completed');
    expect(r.asked).toHaveLength(1);
    expect(r.asked[0]).toMatchObject({ tool: 'bash', category: 'command', summary: expect.stringContaining('rm -rf build'), protected: false });
    expect(lastToolText()).toMatch(/declined.*Reason: not now/);
  });

  it('"always allow for this session" stops asking for that tool and is kept in the log', async () => {
    const { project: p, session, ctx } = await project([
      reply.tool('write', { file_path: 'one.txt', content: '1' }),
      reply.tool('write', { file_path: 'two.txt', content: '2' }),
      reply.text('done'),
    ]);
    const r = recorder([{ approved: true, scope: 'session' }]);
    await p.send('go', r);
    expect(r.asked).toHaveLength(1);
    expect(r.events.filter((e) => e.type === 'approval').map((e) => (e as { automatic: boolean }).automatic)).toEqual([false, true]);
    session.close();
    const reopened = ctx.sessions.open(session.id);
    expect(reopened.config().allowedTools.has('write')).toBe(true);
    reopened.close();
  });

  it('shows the file change for approval and writes exactly what the person settled on', async () => {
    const { project: p } = await project([
      reply.tool('read', { file_path: 'a.txt' }),
      reply.tool('edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' }),
      reply.text('edited'),
    ]);
    const r = recorder([{ approved: true, content: 'gamma\n', note: 'The person changed the proposal to gamma.' }]);
    await p.send('edit it', r);
    expect(r.asked[0].change).toMatchObject({ before: 'alpha\n', after: 'beta\n' });
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('gamma\n');
    expect(lastToolText()).toMatch(/changed the proposal to gamma/);
  });

  it('marks protected paths and asks even in yolo mode and with a session allowance', async () => {
    const { project: p } = await project([reply.tool('write', { file_path: '.vscode/settings.json', content: '{}' }), reply.text('ok')], {
      overrides: [{ model: 'local/scripted', providers: { local: { baseURL: server.baseURL } }, approvalMode: 'yolo' }],
    });
    const r = recorder([{ approved: false }]);
    await p.send('configure', r);
    expect(r.asked).toHaveLength(1);
    expect(r.asked[0]).toMatchObject({ protected: true, rule: 'protected path', paths: ['.vscode/settings.json'] });
  });

  it('drops write and command tools in an untrusted workspace', async () => {
    const { project: p } = await project([reply.text('hi')], { workspaceTrusted: false });
    await p.send('hello', recorder());
    const offered = (server.requests[0].body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(offered).toContain('read');
    expect(offered).not.toContain('write');
    expect(offered).not.toContain('edit');
    expect(offered).not.toContain('bash');
  });

  it('records the conversation in the session log, including partial text on cancel', async () => {
    const { project: p, session, ctx } = await project([reply.text('one two three four five six', { chunkSize: 4, delayMs: 50 })]);
    const controller = new AbortController();
    let deltas = 0;
    const result = await p.send('count', {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'text_delta' && ++deltas === 2) controller.abort();
      },
    });
    expect(result.status).toBe('cancelled');
    session.close();
    const reopened = ctx.sessions.open(session.id);
    const entries = reopened.entries().flatMap((e) => (e.kind === 'message' ? [e] : []));
    expect(entries.map((e) => e.message.role)).toEqual(['user', 'assistant']);
    expect(entries[1].meta?.partial).toBe(true);
    expect(JSON.stringify(entries[1].message)).toContain('one two');
    reopened.close();
  });

  it('streams reasoning from an OpenAI-compatible endpoint separately from the answer', async () => {
    const { project: p } = await project([reply.text('The answer.', { reasoning: 'Let me think about it.' })]);
    const r = recorder();
    await p.send('why?', r);
    const reasoning = r.events.filter((e) => e.type === 'reasoning_delta').map((e) => (e as { text: string }).text).join('');
    const text = r.events.filter((e) => e.type === 'text_delta').map((e) => (e as { text: string }).text).join('');
    expect(reasoning).toBe('Let me think about it.');
    expect(text).toBe('The answer.');
  });

  it('refuses images for a model that does not take them, before anything is logged', async () => {
    const { project: p, session } = await project([reply.text('I see a cat')]);
    const picture = [
      { type: 'text' as const, text: 'what is this?' },
      { type: 'image' as const, image: 'aGVsbG8=', mediaType: 'image/png' },
    ];
    await expect(p.send(picture)).rejects.toThrow(/does not take images.*"images": true/);
    expect(session.entries()).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('sends images to a model configured to take them', async () => {
    const { project: p } = await project([reply.text('I see a cat')], {
      overrides: [{ model: 'local/scripted', providers: { local: { baseURL: server.baseURL, models: { scripted: { images: true } } } } }],
    });
    const result = await p.send([
      { type: 'text', text: 'what is this?' },
      { type: 'image', image: 'aGVsbG8=', mediaType: 'image/png' },
    ]);
    expect(result.text).toBe('I see a cat');
    expect(JSON.stringify(server.requests[0].body)).toContain('data:image/png;base64,aGVsbG8=');
  });

  it('queues a second send until the first has finished', async () => {
    const { project: p } = await project([
      reply.text('first answer', { delayMs: 20 }),
      { ...reply.text('second answer'), match: { lastUserIncludes: 'second' } },
    ]);
    const [a, b] = await Promise.all([p.send('first'), p.send('second')]);
    expect([a.text, b.text]).toEqual(['first answer', 'second answer']);
    // The second request carries the whole first exchange: it really ran after it.
    expect(JSON.stringify(server.requests[1].body)).toContain('first answer');
  });

  it('with a host that keeps the queue (the chat): its runs and the Project\'s go through that one queue; a call in the turn a host run holds goes on in it', async () => {
    const { ctx, session } = await project([reply.text('first answer', { delayMs: 50 }), reply.text('second answer'), reply.text('third answer')]);
    const queue = new RunQueue<QueuedRun>();
    const p = new Project(ctx, session, { queue });
    const order: string[] = [];
    const hostRun = (text: string) =>
      new Promise<string>((resolve, reject) => {
        queue.add({
          run: async (turn) => {
            order.push(`${text} starts`);
            const result = await p.send(text, { turn }).catch((err: unknown) => { reject(err); throw err; });
            order.push(`${text} ends`);
            resolve(result.text);
          },
          dropped: () => reject(new Error('dropped')),
        });
        queue.start();
      });
    const first = hostRun('first');
    // A call without a turn (as the CLI makes) waits behind the host's run instead of overlapping it.
    const second = p.send('second');
    const third = hostRun('third');
    expect(await Promise.all([first, second.then((r) => r.text), third])).toEqual(['first answer', 'second answer', 'third answer']);
    expect(order).toEqual(['first starts', 'first ends', 'third starts', 'third ends']);
    expect(session.history().filter((m) => m.role === 'user').map((m) => personText(m.content))).toEqual(['first', 'second', 'third']);
    // A turn that is over is not a way around the queue.
    let spent: RunTurn | undefined;
    queue.add({ run: async (turn) => void (spent = turn), dropped: () => undefined });
    queue.start();
    await queue.whenIdle();
    await expect(p.send('late', { turn: spent! })).rejects.toThrow(/That run has ended in this conversation/);
  });
});

describe('plugins in a conversation', () => {
  it('apply systemPrompt, userPrompt, toolUse and toolResult hooks, and add tools that go through approval', async () => {
    const seen: string[] = [];
    const plugin: KeelPlugin = {
      name: 'team',
      systemPrompt: (p) => `${p}\nTeam rule: write tests first.`,
      userPrompt: (t) => `${t} (from the team plugin)`,
      toolUse: (u) => (u.name === 'shout' ? { ...u, input: { text: 'rewritten' } } : u),
      toolResult: (res, u) => (u.name === 'shout' ? { ...res, output: `${String(res.output)} [checked]` } : res),
      tool: () => [
        defineTool({
          name: 'shout',
          description: 'shouts text',
          category: 'network',
          inputSchema: z.object({ text: z.string() }),
          async execute(input) {
            seen.push(input.text);
            return { output: input.text.toUpperCase() };
          },
        }),
      ],
    };
    const { project: p } = await project(
      [
        { ...reply.tool('shout', { text: 'hello' }), match: { systemIncludes: 'Team rule', lastUserIncludes: 'from the team plugin', toolsInclude: ['shout'] } },
        { ...reply.text('done'), match: { lastToolResultIncludes: 'REWRITTEN [checked]' } },
      ],
      { plugins: [plugin] },
    );
    const r = recorder([{ approved: true }]);
    const result = await p.send('shout please', r);
    expect(result.status).toBe('completed');
    expect(r.asked.map((a) => a.tool)).toEqual(['shout']);
    expect(seen).toEqual(['rewritten']);
  });

  it('a plugin that throws does not break the conversation', async () => {
    const { project: p, ctx } = await project([reply.text('still fine')], {
      plugins: [{ name: 'broken', systemPrompt: () => { throw new Error('kaput'); } }],
    });
    const result = await p.send('hi');
    expect(result.text).toBe('still fine');
    expect(ctx.plugins.names()).toEqual(['broken']);
  });
});

/** The scripted server's model under `name`, with every tool call allowed (a layer of the person's settings). */
function yolo(name: string): NonNullable<ContextOptions['overrides']>[number] {
  return { model: `local/${name}`, approvalMode: 'yolo', providers: { local: { baseURL: server.baseURL } } };
}

// A conversation outlasts its configuration: a new Context (another model, other settings)
// reaches the next run, and what the conversation holds stays (ConversationRuntime).
describe('a Project given a new Context', () => {
  it('keeps the files read, the todos and the background commands when the Context changes; the next run uses the new one', async () => {
    const { ctx: first, project: p } = await project(
      [
        reply.tool('read', { file_path: 'a.txt' }),
        reply.tool('todo_write', { todos: [{ id: '1', content: 'check a.txt', status: 'in_progress' }] }),
        reply.text('read it'),
        reply.tool('edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'omega' }),
        reply.text('edited'),
      ],
      { overrides: [yolo('scripted')] },
    );
    try {
      expect(first.config.approvalMode).toBe('yolo');
      expect((await p.send('read a.txt')).status).toBe('completed');
      const jobs = p.jobs;
      const todos = p.todos.get();
      expect(todos.map((t) => t.content)).toEqual(['check a.txt']);

      const second = await Context.create({ folders: [{ path: ws }], host: createFsHost(), env: { KEEL_HOME: home }, overrides: [yolo('other')] });
      p.useContext(second);
      expect(p.ctx).toBe(second);
      expect(p.jobs).toBe(jobs);
      expect(p.todos.get()).toEqual(todos);

      const result = await p.send('edit a.txt');
      expect(result.status).toBe('completed');
      expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('omega\n');
      expect((server.requests.at(-1)!.body as { model: string }).model).toBe('other');
    } finally {
      await p.dispose();
    }
  });

  it('refuses a Context of another workspace: that conversation is not this one', async () => {
    const { ctx: first, project: p } = await project([]);
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    const other = await Context.create({ folders: [{ path: elsewhere }], host: createFsHost(), env: { KEEL_HOME: home } });
    expect(() => p.useContext(other)).toThrow(/belongs to another workspace/);
    expect(p.ctx).toBe(first);
  });
});
