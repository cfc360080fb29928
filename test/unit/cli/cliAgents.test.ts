import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { runCli, useCliRig } from './cliHarness';

const fixture = join(__dirname, '../../fixtures/workspaces/bringYourSetup');

// Each test works in a copy of the fixture repository; HOME is the sandbox's, so the machine's ~/.claude stays out.
const rig = useCliRig((box) => cpSync(fixture, box.ws, { recursive: true }));

function keel(...args: string[]) {
  return runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', ...args], {
    KEEL_HOME: rig.box.home,
    HOME: rig.box.home,
  });
}

const toolNames = (i: number) => (rig.server.requests[i].body.tools as { function: { name: string } }[]).map((x) => x.function.name);

describe('keel run with custom agents', () => {
  it('--agent reviewer works as the reviewer: its prompt in the system prompt, only its tools', async () => {
    rig.server.load({ turns: [reply.text('Looks fine.')] });
    const r = await keel('--agent', 'reviewer', 'review the handlers');
    expect(r.code).toBe(0);
    expect(JSON.stringify(rig.server.requests[0].body.messages[0])).toContain('Marker: AGENT-REVIEWER.');
    // tools: Read, Grep, Glob — narrowed to those.
    expect(toolNames(0).sort()).toEqual(['glob', 'grep', 'read']);
  });

  it('--agent with an unknown name fails and names the agents there are', async () => {
    rig.server.load({ turns: [] });
    const r = await keel('--agent', 'nobody', 'hello');
    expect(r.code).toBe(1);
    const error = r.lines.find((l) => l.type === 'error');
    expect(String(error?.message)).toContain('No agent is named "nobody". Agents: tester, reviewer, planner.');
    expect(rig.server.requests.length).toBe(0);
  });

  it('stream-json carries a subagent\'s steps tagged with the parent\'s task call', async () => {
    rig.server.load({
      turns: [
        reply.tool('task', { description: 'review', prompt: 'Review AGENTS.md', agent: 'reviewer' }),
        { ...reply.tool('read', { file_path: 'AGENTS.md' }), match: { systemIncludes: 'AGENT-REVIEWER' } },
        { ...reply.text('No problems.'), match: { systemIncludes: 'AGENT-REVIEWER' } },
        { ...reply.text('The reviewer found no problems.'), match: { lastToolResultIncludes: 'No problems.' } },
      ],
    });
    const r = await keel('review AGENTS.md with the reviewer');
    expect(r.code).toBe(0);
    const task = r.lines.find((l) => l.type === 'tool_use' && l.name === 'task');
    const steps = r.lines.filter((l) => l.type === 'subagent');
    expect(steps.map((s) => (s.step as { kind: string }).kind)).toEqual(['tool_use', 'tool_result', 'text']);
    for (const s of steps) expect(s).toMatchObject({ parent: task?.id, agent: 'reviewer' });
    expect(r.lines.find((l) => l.type === 'result')).toMatchObject({ text: 'The reviewer found no problems.' });
  });

  it('stream-json says what the subagent used so far after each of its model calls', async () => {
    rig.server.load({
      turns: [
        { ...reply.tool('task', { description: 'review', prompt: 'Review AGENTS.md', agent: 'reviewer' }), usage: { prompt_tokens: 900, completion_tokens: 9 } },
        { ...reply.tool('read', { file_path: 'AGENTS.md' }), match: { systemIncludes: 'AGENT-REVIEWER' }, usage: { prompt_tokens: 100, completion_tokens: 10 } },
        { ...reply.text('No problems.'), match: { systemIncludes: 'AGENT-REVIEWER' }, usage: { prompt_tokens: 200, completion_tokens: 20 } },
        { ...reply.text('Done.'), match: { lastToolResultIncludes: 'No problems.' }, usage: { prompt_tokens: 1000, completion_tokens: 5 } },
      ],
    });
    const r = await keel('review AGENTS.md with the reviewer');
    expect(r.code).toBe(0);
    const task = r.lines.find((l) => l.type === 'tool_use' && l.name === 'task');
    const usage = r.lines.filter((l) => l.type === 'subagent_usage');
    expect(usage).toEqual([
      { type: 'subagent_usage', parent: task?.id, usage: { inputTokens: 100, outputTokens: 10 } },
      { type: 'subagent_usage', parent: task?.id, usage: { inputTokens: 300, outputTokens: 30 } },
    ]);
  });
});
