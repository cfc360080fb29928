// An MCP server's question and sampling request reach the person as cards in the conversation:
// a real server (askingServer.mjs over stdio) called by the model of a real chat controller
// (scripted model server over HTTP) asks; the card appears in the message of that call on the
// page, the page answers it over the bus, and the server gets exactly that answer. An approved
// sampling request runs on the person's model as edited, and its tokens count in the
// conversation's usage.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager, approvedSampler } from '../../../src/core/mcp';
import type { ChatController } from '../../../src/chat/chatController';
import type { McpRequestPart } from '../../../src/protocol/mcpRequests';
import type { Usage } from '../../../src/protocol/sessionState';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { bookingFields } from '../../fixtures/mcp/bookingForm.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { settle, until } from './chatHarness';
import type { ChatRig, Page } from './chatHarness';
import { useChatRig } from './chatSuite';

const asking = join(import.meta.dirname, '../../fixtures/mcp/askingServer.mjs');
const rigs = useChatRig();
let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.dispose();
  manager = undefined;
});

/** A rig whose core has the asking server; its questions and sampling requests go to the controller's cards (declined when none can show). */
function openRig(): ChatRig {
  let controller: ChatController | undefined;
  let rig: ChatRig | undefined;
  manager = new McpManager({
    workspaceRoot: process.cwd(),
    env: { PATH: process.env.PATH },
    log: () => undefined,
    trusted: true,
    version: '1',
    elicit: (server, question, signal) => controller?.mcpCards.elicit(server, question, signal) ?? Promise.resolve({ action: 'decline' }),
    sample: approvedSampler(
      (server, _request, modelId, params, signal) => controller?.mcpCards.approveSampling(server, modelId, params, signal) ?? Promise.resolve({ run: false }),
      async () => (await rig!.loader.get()).ctx.models.resolve('model'),
    ),
  });
  manager.setServers([{ name: 'asking', origin: 'user', type: 'stdio', command: process.execPath, args: [asking], env: {} }]);
  rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' }, { mcp: manager });
  controller = rig.controller;
  return rig;
}

function cardOf(messages: readonly UiMessage[]): { messageId: string; part: McpRequestPart } | undefined {
  for (const m of messages) {
    const part = m.parts.find((p): p is McpRequestPart => p.type === 'mcpRequest');
    if (part) return { messageId: m.id, part };
  }
  return undefined;
}

async function openPageAndSend(rig: ChatRig, text: string): Promise<Page> {
  const page = rig.openPage(() => ({ approved: true }));
  await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
  await until(() => manager!.status()[0]?.state === 'ready', 'the MCP server ready');
  await page.bus.request('session.send', { text });
  await until(() => cardOf(page.store.messages)?.part.state === 'open', 'the card on the page');
  return page;
}

describe("an MCP server's question as a card", () => {
  it('shows the form in the message of the call; the values the page sends are what the server gets', async () => {
    const rig = openRig();
    rigs.server.load({
      turns: [reply.tool('mcp__asking__book', {}), reply.text('Booked.', { match: { lastToolResultIncludes: '"action":"accept"' } })],
    });
    const page = await openPageAndSend(rig, 'book me a room');
    const { messageId, part } = cardOf(page.store.messages)!;
    // In the message holding the running call, after its card.
    const holder = page.store.messages.find((m) => m.id === messageId)!;
    expect(holder.parts.some((p) => p.type === 'toolCall' && p.name === 'mcp__asking__book')).toBe(true);
    expect(part.server).toBe('asking');
    expect(part.request).toEqual({
      kind: 'form',
      message: 'Where do you want to stay?',
      fields: bookingFields,
    });

    // It waits for the person like an approval (the badge, the sessions list).
    expect(rig.controller.approvalsWaiting).toBe(1);
    const content = { city: 'Lisbon', nights: 3, breakfast: true, room: 'double' };
    expect(await page.bus.request('mcp.answer', { requestId: part.requestId, answer: { action: 'accept', content } })).toEqual({ settled: true });
    await until(() => !rig.controller.isRunning && rig.controller.messages().at(-1)?.status === 'done', 'the answer');
    await settle();
    expect(JSON.stringify(rigs.server.requests.at(-1)?.body.messages)).toContain(JSON.stringify(JSON.stringify({ action: 'accept', content })).slice(1, -1));
    expect(cardOf(page.store.messages)?.part.state).toBe('accepted');
    expect(rig.controller.approvalsWaiting).toBe(0);
    expect(page.store.messages).toEqual(rig.controller.messages());
    // A second answer to the same card changes nothing.
    expect(await page.bus.request('mcp.answer', { requestId: part.requestId, answer: { action: 'decline' } })).toEqual({ settled: false });
    expect(cardOf(rig.controller.messages())?.part.state).toBe('accepted');
  });

  it('declined on the card, the server hears decline', async () => {
    const rig = openRig();
    rigs.server.load({
      turns: [reply.tool('mcp__asking__book', {}), reply.text('Not booked.', { match: { lastToolResultIncludes: '"action":"decline"' } })],
    });
    const page = await openPageAndSend(rig, 'book me a room');
    const { part } = cardOf(page.store.messages)!;
    await page.bus.request('mcp.answer', { requestId: part.requestId, answer: { action: 'decline' } });
    await until(() => !rig.controller.isRunning && rig.controller.messages().at(-1)?.status === 'done', 'the answer');
    const last = rig.controller.messages().at(-1)!;
    expect(last.parts).toContainEqual({ type: 'text', text: 'Not booked.' });
    expect(cardOf(rig.controller.messages())?.part.state).toBe('declined');
  });

  it('a card still open when the person stops the run is cancelled; answering it later changes nothing', async () => {
    const rig = openRig();
    rigs.server.load({ turns: [reply.tool('mcp__asking__book', {})] });
    const page = await openPageAndSend(rig, 'book me a room');
    const { part } = cardOf(page.store.messages)!;
    await page.bus.request('session.cancel', {});
    await until(() => !rig.controller.isRunning, 'the run stopped');
    await settle();
    expect(cardOf(page.store.messages)?.part.state).toBe('cancelled');
    expect(await page.bus.request('mcp.answer', { requestId: part.requestId, answer: { action: 'accept', content: { city: 'x', room: 'single' } } })).toEqual({
      settled: false,
    });
    expect(page.store.messages).toEqual(rig.controller.messages());
  });
});

describe("an MCP server's sampling request as a card", () => {
  it('shows the request; run as edited on the person model, its tokens count in the message and the total', async () => {
    const rig = openRig();
    rigs.server.load({
      turns: [
        reply.tool('mcp__asking__summarize', { text: 'the quarterly report' }, { usage: { prompt_tokens: 100, completion_tokens: 10 } }),
        reply.text('Two lines.', { match: { lastUserIncludes: 'Summarize: the edited report' }, usage: { prompt_tokens: 50, completion_tokens: 5 } }),
        reply.text('Summarized.', { match: { lastToolResultIncludes: 'summary from' }, usage: { prompt_tokens: 200, completion_tokens: 3 } }),
      ],
    });
    const page = await openPageAndSend(rig, 'summarize the report through the server');
    const { messageId, part } = cardOf(page.store.messages)!;
    expect(part.request).toEqual({
      kind: 'sampling',
      modelId: expect.stringContaining('scripted-model'),
      systemPrompt: 'You summarize.',
      messages: [{ role: 'user', text: 'Summarize: the quarterly report' }],
      lastUserText: 'Summarize: the quarterly report',
      maxTokens: 200,
    });
    const before = rigs.server.requests.length;
    await page.bus.request('mcp.answer', { requestId: part.requestId, answer: { action: 'accept', text: 'Summarize: the edited report' } });
    await until(() => !rig.controller.isRunning && rig.controller.messages().at(-1)?.status === 'done', 'the answer');
    await settle();
    const sampled = rigs.server.requests[before]!;
    expect(JSON.stringify(sampled.body.messages)).toContain('Summarize: the edited report');
    expect(JSON.stringify(sampled.body.messages)).not.toContain('the quarterly report');
    expect(JSON.stringify(rigs.server.requests.at(-1)?.body.messages)).toMatch(/summary from [^"]*: Two lines\./);

    const card = cardOf(page.store.messages)!;
    expect(card.part.state).toBe('accepted');
    expect(card.part.usage).toEqual({ inputTokens: 50, outputTokens: 5 });
    // The message that holds the card counts its own call and the sampling request.
    expect(page.store.messages.find((m) => m.id === messageId)?.usage).toEqual({ inputTokens: 150, outputTokens: 15 });
    const total = page.store.named('usage').at(-1) as Usage;
    expect(total).toMatchObject({ inputTokens: 350, outputTokens: 18 });
    expect(page.store.messages).toEqual(rig.controller.messages());
  });

  it('rejected, nothing reaches the model and the server hears the refusal', async () => {
    const rig = openRig();
    rigs.server.load({
      turns: [reply.tool('mcp__asking__summarize', { text: 'secret' }), reply.text('It was refused.', { match: { lastToolResultIncludes: 'sampling failed' } })],
    });
    const page = await openPageAndSend(rig, 'summarize through the server');
    const { part } = cardOf(page.store.messages)!;
    const before = rigs.server.requests.length;
    await page.bus.request('mcp.answer', { requestId: part.requestId, answer: { action: 'decline' } });
    await until(() => !rig.controller.isRunning && rig.controller.messages().at(-1)?.status === 'done', 'the answer');
    // One request after the card: the model's next turn, which saw the refusal; no sampling call.
    expect(rigs.server.requests.length).toBe(before + 1);
    expect(JSON.stringify(rigs.server.requests.at(-1)?.body.messages)).toContain('declined');
    expect(cardOf(rig.controller.messages())?.part.state).toBe('declined');
  });
});
