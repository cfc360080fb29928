import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileTextCache } from '../../../src/core/llmsContext/fileTextCache';
import { Project } from '../../../src/core/project';
import type { ProjectEvent } from '../../../src/core/projectTypes';
import { discoverAgents, subagentTools } from '../../../src/core/setup/agentFiles';
import type { AgentFile } from '../../../src/core/setup/agentFiles';
import { builtinTools } from '../../../src/core/tools/builtinTools';
import { matchesProtectedPattern } from '../../../src/core/workspace/protectedPaths';
import { Workspace } from '../../../src/core/workspace/workspace';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { tempTree } from './contextFixture';
import type { TempTree } from './contextFixture';
import { projectBench, recorder } from './projectHarness';
import type { ProjectBench } from './projectHarness';

const fixture = join(__dirname, '../../fixtures/workspaces/bringYourSetup');

let t: TempTree;
afterEach(() => t?.cleanup());

function agent(over: Partial<AgentFile>): AgentFile {
  return { name: 'a', description: 'd', prompt: 'p', tools: [], path: '/a.md', display: 'a.md', ...over };
}

describe('agent definitions', () => {
  it('finds .keel, .claude and .github agents, then the person\'s, with their tools and model', async () => {
    t = tempTree('keel-agents-');
    cpSync(fixture, t.root, { recursive: true });
    const keel = join(t.root, '..', 'keel-home');
    const user = join(t.root, '..', 'user-home');
    mkdirSync(join(keel, 'agents'), { recursive: true });
    mkdirSync(join(user, '.claude', 'agents'), { recursive: true });
    writeFileSync(join(keel, 'agents', 'mine.md'), '---\ndescription: My own agent.\n---\nMINE');
    // Same name as a workspace agent: the workspace's wins.
    writeFileSync(join(user, '.claude', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Home copy.\n---\nHOME');
    writeFileSync(join(user, '.claude', 'agents', 'nodesc.md'), '---\nname: nodesc\n---\nNo description.');
    writeFileSync(join(t.root, '.github', 'agents', 'notes.md'), '---\nname: notes\ndescription: Not an .agent.md file.\n---\nX');
    const workspace = await Workspace.create([{ path: t.root }]);
    const agents = await discoverAgents(workspace, { keel, user }, new FileTextCache());
    expect(agents.map((a) => [a.name, a.display])).toEqual([
      ['tester', '.keel/agents/tester.md'],
      ['reviewer', '.claude/agents/reviewer.md'],
      ['planner', '.github/agents/planner.agent.md'],
      ['mine', '~keel/agents/mine.md'],
    ]);
    const [tester, reviewer, planner] = agents;
    expect(reviewer).toMatchObject({ description: 'Reviews code changes for correctness and style. Use after writing code.', tools: ['Read', 'Grep', 'Glob'] });
    expect(reviewer.model).toBeUndefined(); // `inherit`
    expect(reviewer.prompt).toBe('You are a careful code reviewer. Report problems as a list. Marker: AGENT-REVIEWER.');
    expect(planner).toMatchObject({ tools: ['search', 'fetch'], model: 'GPT-5' });
    expect(tester.tools).toEqual(['read', 'grep', 'glob', 'bash', 'edit', 'write']);
  });

  it('a definition\'s tools only narrow: read-only without tools, never more than offered, never task', () => {
    const offered = [...builtinTools(), { name: 'task', category: 'read' }];
    const names = (a?: AgentFile) => subagentTools(offered, a).map((x) => x.name).sort();
    const reads = offered.filter((x) => x.category === 'read' && x.name !== 'task').map((x) => x.name).sort();
    expect(names(undefined)).toEqual(reads);
    expect(names(agent({ tools: ['Frobnicate'] }))).toEqual(reads);
    expect(names(agent({ tools: ['Read', 'Grep', 'Bash(git:*)'] }))).toEqual(['bash', 'grep', 'read']);
    expect(names(agent({ tools: ['read', 'write', 'task'] }))).toEqual(['read', 'write']);
    // What the parent run does not offer (plan mode, no trust) stays out whatever the file says.
    const readOnly = offered.filter((x) => x.category === 'read');
    expect(subagentTools(readOnly, agent({ tools: ['read', 'write', 'bash'] })).map((x) => x.name)).toEqual(['read']);
  });

  it('agent folders are protected paths', () => {
    for (const p of ['.claude/agents/x.md', '.github/agents/x.agent.md', '.keel/agents/x.md']) expect(matchesProtectedPattern(p)).toBe(true);
  });
});

const taskNames = (events: ProjectEvent[]) => events.flatMap((e) => (e.type === 'subagent' ? [`${e.agent}:${e.step.kind}`] : []));

describe('the task tool (scripted model)', () => {
  let server: ScriptedServer;
  let bench: ProjectBench;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());
  afterEach(() => bench?.cleanup());

  const reviewer = '---\nname: reviewer\ndescription: Reviews code changes.\ntools: Read, Grep\n---\nYou review. REVIEWER-PROMPT';

  it('runs a named agent in a fresh conversation and returns its final answer to the parent', async () => {
    bench = projectBench(server);
    bench.write('.claude/agents/reviewer.md', reviewer);
    bench.write('src/a.ts', 'export const a = 1;\n');
    const { project } = await bench.project([
      reply.tool('task', { description: 'review a.ts', prompt: 'Review src/a.ts', agent: 'reviewer' }, { usage: { prompt_tokens: 100, completion_tokens: 10 } }),
      { ...reply.tool('read', { file_path: 'src/a.ts' }, { usage: { prompt_tokens: 50, completion_tokens: 5 } }), match: { systemIncludes: 'REVIEWER-PROMPT', lastUserIncludes: 'Review src/a.ts' } },
      { ...reply.text('LGTM: a is 1', { usage: { prompt_tokens: 60, completion_tokens: 6 } }), match: { lastToolResultIncludes: 'export const a = 1' } },
      { ...reply.text('The reviewer says it is fine.', { usage: { prompt_tokens: 120, completion_tokens: 12 } }), match: { lastToolResultIncludes: 'LGTM: a is 1' } },
    ]);
    const r = recorder();
    const result = await project.send('review my change', r);
    expect(result.status).toBe('completed');
    expect(result.text).toBe('The reviewer says it is fine.');
    // The parent's first request carries the agents' names and descriptions, not their prompts.
    const first = JSON.stringify(server.requests[0].body);
    expect(first).toContain('- reviewer: Reviews code changes.');
    expect(first).not.toContain('REVIEWER-PROMPT');
    // The subagent starts fresh: only the task, not the parent's conversation, and only its tools.
    const sub = server.requests[1].body;
    expect(JSON.stringify(sub.messages)).not.toContain('review my change');
    expect((sub.tools as { function: { name: string } }[]).map((x) => x.function.name).sort()).toEqual(['grep', 'read']);
    expect(taskNames(r.events)).toEqual(['reviewer:tool_use', 'reviewer:tool_result', 'reviewer:text']);
    const step = r.events.find((e) => e.type === 'subagent');
    const taskCall = r.events.find((e) => e.type === 'tool_use' && e.name === 'task');
    expect(step && step.type === 'subagent' && taskCall && taskCall.type === 'tool_use' && step.parentToolCallId === taskCall.toolCallId).toBe(true);
    // The subagent's usage is counted into the parent's.
    expect(result.usage).toMatchObject({ inputTokens: 330, outputTokens: 33 });
  });

  it('runs two task calls of one turn in parallel', async () => {
    bench = projectBench(server);
    bench.write('.claude/agents/reviewer.md', reviewer);
    const { project } = await bench.project([
      reply.tools([
        { name: 'task', arguments: { description: 'one', prompt: 'first half' } },
        { name: 'task', arguments: { description: 'two', prompt: 'second half', agent: 'reviewer' } },
      ]),
      // Both subagents' requests must arrive before either is answered.
      { ...reply.text('HALF DONE'), match: { systemIncludes: 'handed you' }, repeat: 2, gate: 'subs' },
      { ...reply.text('all done'), match: { lastToolResultIncludes: 'HALF DONE' } },
    ]);
    const r = recorder();
    const running = project.send('do both halves', r);
    await waitFor(() => server.requests.length >= 3);
    server.open('subs');
    const result = await running;
    expect(result.status).toBe('completed');
    const last = JSON.stringify(server.requests.at(-1)!.body.messages);
    expect(last.match(/HALF DONE/g)?.length).toBe(2);
    expect(new Set(r.events.flatMap((e) => (e.type === 'subagent' ? [e.agent] : [])))).toEqual(new Set(['general', 'reviewer']));
  });

  it('a subagent\'s write goes to the person for approval, and a declined write is not made', async () => {
    bench = projectBench(server);
    bench.write('.keel/agents/tester.md', '---\nname: tester\ndescription: Writes tests.\ntools: read, write\n---\nWrite tests.');
    const { project } = await bench.project([
      reply.tool('task', { description: 'write a test', prompt: 'add a test', agent: 'tester' }),
      { ...reply.tool('write', { file_path: 'a.test.ts', content: 'test()' }), match: { toolsInclude: ['write'] } },
      { ...reply.text('I could not write it.'), match: { lastToolResultIncludes: 'declined' } },
      { ...reply.text('ok'), match: { lastToolResultIncludes: 'could not write' } },
    ]);
    const r = recorder([{ approved: false }]);
    expect((await project.send('test it', r)).status).toBe('completed');
    expect(r.asked.map((a) => a.tool)).toEqual(['write']);
    expect(r.asked[0].toolCallId).toMatch(/\..+/);
    expect(existsSync(join(bench.ws, 'a.test.ts'))).toBe(false);
  });

  it('a subagent\'s approved write is reported to the event rules: the run-tests reminder reaches the parent', async () => {
    bench = projectBench(server);
    bench.write('package.json', JSON.stringify({ scripts: { test: 'vitest run' } }));
    bench.write('.keel/agents/tester.md', '---\nname: tester\ndescription: Writes tests.\ntools: read, write\n---\nWrite tests.');
    const { project } = await bench.project([
      reply.tool('task', { description: 'write a test', prompt: 'add a test', agent: 'tester' }),
      { ...reply.tool('write', { file_path: 'a.test.ts', content: 'test()' }), match: { toolsInclude: ['write'] } },
      { ...reply.text('Wrote a.test.ts.'), match: { lastToolResultIncludes: 'a.test.ts' } },
      { ...reply.text('done'), match: { lastToolResultIncludes: 'Wrote a.test.ts' } },
    ]);
    const r = recorder([{ approved: true }]);
    expect((await project.send('test it', r)).status).toBe('completed');
    expect(existsSync(join(bench.ws, 'a.test.ts'))).toBe(true);
    const fired = r.events.flatMap((e) => (e.type === 'rules_fired' ? e.fired.map((f) => f.id) : []));
    expect(fired).toContain('builtin.run-tests');
    // The parent, which reports the task done, is told to run the tests its subagent's change needs.
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain('You changed a.test.ts');
  });

  it('a conversation that works as an agent keeps it in its log: its prompt and tools in every run, resumed too', async () => {
    bench = projectBench(server);
    bench.write('.claude/agents/reviewer.md', reviewer);
    const { ctx, project } = await bench.project([reply.text('one'), reply.text('two')]);
    await expect(project.useAgent('nobody')).rejects.toThrow('No agent is named "nobody". Agents: reviewer.');
    await project.useAgent('reviewer');
    await project.send('first', recorder());
    project.session.close();
    const again = new Project(ctx, ctx.sessions.open(project.session.id));
    expect(again.agent).toBe('reviewer');
    await again.send('second', recorder());
    for (const request of server.requests) {
      expect(JSON.stringify(request.body.messages[0])).toContain('REVIEWER-PROMPT');
      // tools: Read, Grep — narrowed to those, and no task tool for an agent that names tools.
      expect((request.body.tools as { function: { name: string } }[]).map((x) => x.function.name).sort()).toEqual(['grep', 'read']);
    }
    again.session.close();
  });

  it('offers no task tool where no agent is defined', async () => {
    bench = projectBench(server);
    const { project } = await bench.project([reply.text('hi')]);
    await project.send('hello', recorder());
    expect((server.requests[0].body.tools as { function: { name: string } }[]).map((x) => x.function.name)).not.toContain('task');
  });
});

async function waitFor(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 10));
}
