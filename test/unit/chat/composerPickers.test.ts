// The composer's agent and reasoning pickers, host side: what the page is told (the agents there
// are, the conversation's agent, the model's reasoning choices) and what choosing does to the
// next request, through the bus as the page calls it and over HTTP to the scripted server.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isBusError } from '../../../src/protocol/busError';
import type { ConfigSummary, RunState } from '../../../src/protocol/sessionState';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { settle, until } from './chatHarness';
import type { Page } from './chatHarness';
import { useChatRig } from './chatSuite';

const rigs = useChatRig();

/** The run state the page holds now: the latest `state` event or snapshot's. */
const lastState = (page: Page): RunState | undefined => {
  const last = page.store.events.filter((e) => e.name === 'state' || e.name === 'snapshot').at(-1);
  if (!last) return undefined;
  return last.name === 'state' ? (last.data as RunState) : (last.data as { state: RunState }).state;
};
/** The configuration summary the page holds now: the latest `config` event or snapshot's. */
const lastConfig = (page: Page): ConfigSummary | undefined => {
  const last = page.store.events.filter((e) => e.name === 'config' || e.name === 'snapshot').at(-1);
  if (!last) return undefined;
  return last.name === 'config' ? (last.data as ConfigSummary) : (last.data as { config: ConfigSummary }).config;
};
const systemOf = (i: number) => JSON.stringify((rigs.server.requests[i].body as { messages: Array<{ role: string; content: unknown }> }).messages.find((m) => m.role === 'system')?.content);

function writeAgent(workspace: string, name: string, description: string, prompt: string): void {
  mkdirSync(join(workspace, '.keel', 'agents'), { recursive: true });
  writeFileSync(join(workspace, '.keel', 'agents', `${name}.md`), `---\nname: ${name}\ndescription: ${description}\n---\n${prompt}\n`);
}

describe('the agent picker', () => {
  it('lists the custom agents with their descriptions, and choosing one makes the next request work as it', async () => {
    const rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
    writeAgent(rig.workspace, 'reviewer', 'Reviews changes for bugs.', 'REVIEWER PROMPT');
    writeAgent(rig.workspace, 'writer', 'Writes docs.', 'WRITER PROMPT');
    rigs.server.load({ turns: [reply.text('As Keel.'), reply.text('As the reviewer.'), reply.text('As Keel again.')] });
    const page = rig.openPage();
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');

    await until(() => lastConfig(page)?.agents !== undefined, 'the agents in the configuration summary');
    expect(lastState(page)?.agent).toBeUndefined();
    expect(lastConfig(page)!.agents).toEqual([
      { name: 'reviewer', description: 'Reviews changes for bugs.' },
      { name: 'writer', description: 'Writes docs.' },
    ]);

    await page.bus.request('session.send', { text: 'first' });
    await until(() => !rig.controller.isRunning && rigs.server.requests.length === 1, 'first answer');
    expect(await page.bus.request('agent.use', { name: 'reviewer' })).toEqual({ agent: 'reviewer' });
    await settle();
    expect(lastState(page)?.agent).toBe('reviewer');
    // The palette's "Use Agent…" reads the same conversation.
    expect((await rig.controller.inView.agents()).current).toBe('reviewer');

    await page.bus.request('session.send', { text: 'second' });
    await until(() => !rig.controller.isRunning && rigs.server.requests.length === 2, 'second answer');
    expect(systemOf(0)).not.toContain('REVIEWER PROMPT');
    expect(systemOf(1)).toContain('REVIEWER PROMPT');

    // Back to Keel's own: '' is no agent.
    expect(await page.bus.request('agent.use', { name: '' })).toEqual({ agent: null });
    await settle();
    expect(lastState(page)?.agent).toBeUndefined();
    await page.bus.request('session.send', { text: 'third' });
    await until(() => !rig.controller.isRunning && rigs.server.requests.length === 3, 'third answer');
    expect(systemOf(2)).not.toContain('REVIEWER PROMPT');
  });

  it('refuses an agent that does not exist, naming the ones that do, and changes nothing', async () => {
    const rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
    writeAgent(rig.workspace, 'reviewer', 'Reviews.', 'R');
    const page = rig.openPage();
    await until(() => page.store.snapshot !== undefined, 'snapshot');
    const err = await page.bus.request('agent.use', { name: 'nobody' }).catch((e: unknown) => e);
    expect(isBusError(err, 'invalid_params')).toBe(true);
    expect((err as Error).message).toContain('reviewer');
    expect((await rig.controller.inView.agents()).current).toBeUndefined();
    expect(lastState(page)?.agent).toBeUndefined();
  });

  it('shows the agent a resumed conversation kept', async () => {
    const rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
    writeAgent(rig.workspace, 'reviewer', 'Reviews.', 'R');
    rigs.server.load({ turns: [reply.text('Done.')] });
    const page = rig.openPage();
    await until(() => page.store.snapshot !== undefined, 'snapshot');
    await page.bus.request('agent.use', { name: 'reviewer' });
    await page.bus.request('session.send', { text: 'hello' });
    await until(() => !rig.controller.isRunning && page.store.messages.at(-1)?.status === 'done', 'answer');
    const id = page.store.snapshot!.session.id ?? (page.store.named('session').at(-1) as { id: string }).id;
    await page.bus.request('session.new', {});
    await until(() => lastState(page)?.agent === undefined, 'a new chat works as Keel');
    await page.bus.request('sessions.resume', { id });
    await until(() => lastState(page)?.agent === 'reviewer', 'the resumed conversation\'s agent');
  });

  it('tells the page of no agents where there are none', async () => {
    const rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
    const page = rig.openPage();
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
    await settle();
    expect(lastConfig(page)!.agents).toBeUndefined();
  });
});

describe('the reasoning picker', () => {
  it('is offered for a model that takes a reasoning choice, with its levels and the person\'s choice', async () => {
    const rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'gpt-5-mini', reasoning: { 'custom/gpt-5-mini': 'low' } });
    const page = rig.openPage();
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
    await until(() => lastState(page)?.reasoning !== undefined, 'the reasoning choices');
    expect(lastState(page)!.reasoning).toEqual({ model: 'custom/gpt-5-mini', levels: ['minimal', 'low', 'medium', 'high'], value: 'low' });
  });

  it('is not offered for a model without one', async () => {
    const rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model', reasoning: { 'custom/scripted-model': 'high' } });
    const page = rig.openPage();
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
    await settle();
    expect(lastState(page)!.reasoning).toBeUndefined();
  });

  it('changed in the settings applies to the next request, and the conversation goes on', async () => {
    const rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'gpt-5-mini' });
    rigs.server.load({ turns: [reply.text('First.'), reply.text('Second.')] });
    const page = rig.openPage();
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
    await page.bus.request('session.send', { text: 'one' });
    await until(() => !rig.controller.isRunning && page.store.messages.at(-1)?.status === 'done', 'first answer');
    const sessionId = (page.store.named('session').at(-1) as { id: string }).id;

    // What the picker's config.set writes: the person's keel.reasoning, then the core is rebuilt.
    rig.settings = { ...rig.settings, reasoning: { 'custom/gpt-5-mini': 'high' } };
    rig.loader.invalidate('settings changed');
    rig.controller.configChanged();
    await until(() => lastState(page)?.reasoning?.value === 'high', 'the new choice shown');

    await page.bus.request('session.send', { text: 'two' });
    await until(() => !rig.controller.isRunning && rigs.server.requests.length === 2 && page.store.messages.at(-1)?.status === 'done', 'second answer');
    const [first, second] = rigs.server.requests.map((r) => r.body as { reasoning_effort?: string; messages: unknown[] });
    expect(first.reasoning_effort).toBeUndefined();
    expect(second.reasoning_effort).toBe('high');
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    expect((page.store.named('session').at(-1) as { id: string }).id).toBe(sessionId);
  });
});
