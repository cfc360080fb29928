// Where an MCP server's request goes and what happens to a card the server gives up on: the
// card lands in the message holding that server's running call (in any open conversation),
// else in the newest answer of the running conversation in view; with no chat view, or nowhere
// to put it, the cards decline to take it (VS Code's own prompts ask instead). A request the
// server withdraws shows as expired and an answer after that changes nothing.
import { describe, expect, it } from 'vitest';
import { McpCards } from '../../../src/chat/approvals/mcpCards';
import type { Conversation } from '../../../src/chat/conversations/conversation';
import type { ElicitQuestion } from '../../../src/core/mcp';
import type { McpRequestPart } from '../../../src/protocol/mcpRequests';
import { recordingConversation } from './recordingConversation';

const never = () => false;

function conversation(running: boolean, callName?: string): { conversation: Conversation; sent: { event: string; data: unknown }[] } {
  const { state, sent } = recordingConversation();
  state.beginRun('m');
  state.apply({ type: 'turn_start', turn: 1 }, never);
  state.apply({ type: 'text_delta', text: 'Working.' }, never);
  if (callName) state.apply({ type: 'tool_use', toolCallId: 'c1', name: callName, input: {} }, never);
  const fake = {
    state,
    queue: { isRunning: running },
    slot: { current: undefined },
    waiting: 0,
    cardWaiting(delta: number) {
      fake.waiting += delta;
    },
  };
  return { conversation: fake as unknown as Conversation, sent };
}

const question: ElicitQuestion = {
  mode: 'form',
  params: { mode: 'form', message: 'Where?', requestedSchema: { type: 'object', properties: { city: { type: 'string', title: 'City' } }, required: ['city'] } },
};

function cards(conversations: Conversation[], viewOpen = true): { cards: McpCards; needed: Conversation[] } {
  const needed: Conversation[] = [];
  return { cards: new McpCards({ conversations: () => conversations, viewOpen: () => viewOpen, onNeeded: (c) => needed.push(c), log: () => undefined }, 'r-'), needed };
}

const cardIn = (c: Conversation): McpRequestPart | undefined =>
  c.state.messages().flatMap((m) => m.parts).find((p): p is McpRequestPart => p.type === 'mcpRequest');

describe('MCP request cards', () => {
  it('go to the conversation running a call of that server, even in the background', async () => {
    const shown = conversation(true, 'mcp__other__x');
    const background = conversation(true, 'mcp__asking__book');
    const { cards: c, needed } = cards([shown.conversation, background.conversation]);
    const answer = c.elicit('asking', question, new AbortController().signal);
    expect(answer).toBeDefined();
    expect(cardIn(shown.conversation)).toBeUndefined();
    const card = cardIn(background.conversation)!;
    expect(card).toMatchObject({ server: 'asking', state: 'open', request: { kind: 'form', fields: [{ name: 'city', label: 'City', kind: 'text', required: true }] } });
    expect(needed).toEqual([background.conversation]);
    expect((background.conversation as unknown as { waiting: number }).waiting).toBe(1);
    expect(c.answer(card.requestId, { action: 'accept', content: { city: 'Porto' } })).toBe(true);
    expect(await answer).toEqual({ action: 'accept', content: { city: 'Porto' } });
    expect(cardIn(background.conversation)?.state).toBe('accepted');
    expect((background.conversation as unknown as { waiting: number }).waiting).toBe(0);
  });

  it('without a call of that server, go to the newest answer of the running conversation in view', () => {
    const shown = conversation(true);
    const { cards: c } = cards([shown.conversation]);
    expect(c.elicit('asking', question, new AbortController().signal)).toBeDefined();
    expect(cardIn(shown.conversation)?.state).toBe('open');
  });

  it('are not taken with no chat view open, or nowhere to put them', () => {
    expect(cards([conversation(true, 'mcp__asking__book').conversation], false).cards.elicit('asking', question, new AbortController().signal)).toBeUndefined();
    expect(cards([conversation(false).conversation]).cards.elicit('asking', question, new AbortController().signal)).toBeUndefined();
  });

  it('a request the server withdraws shows as expired, is answered cancel, and a late answer is refused', async () => {
    const shown = conversation(true, 'mcp__asking__book');
    const { cards: c } = cards([shown.conversation]);
    const withdrawn = new AbortController();
    const answer = c.elicit('asking', question, withdrawn.signal)!;
    const card = cardIn(shown.conversation)!;
    withdrawn.abort();
    expect(await answer).toEqual({ action: 'cancel' });
    expect(cardIn(shown.conversation)?.state).toBe('expired');
    expect(c.answer(card.requestId, { action: 'accept', content: { city: 'late' } })).toBe(false);
    expect(c.answer('r-unknown', { action: 'decline' })).toBe(false);
    expect(cardIn(shown.conversation)?.state).toBe('expired');
    expect(c.size).toBe(0);
    expect((shown.conversation as unknown as { waiting: number }).waiting).toBe(0);
  });

  it('a sampling request that fails after approval shows why', async () => {
    const shown = conversation(true, 'mcp__asking__summarize');
    const { cards: c } = cards([shown.conversation]);
    const params = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Summarize' } }], maxTokens: 50 };
    const verdict = c.approveSampling('asking', 'p/m', params, new AbortController().signal)!;
    const card = cardIn(shown.conversation)!;
    c.answer(card.requestId, { action: 'accept', text: 'Summarize' });
    const v = await verdict;
    // Not edited: the request runs as the server sent it.
    expect(v).toEqual({ run: true, ran: expect.any(Function) });
    expect(cardIn(shown.conversation)?.state).toBe('running');
    if (v.run) v.ran?.({ error: 'the model is unreachable' });
    expect(cardIn(shown.conversation)).toMatchObject({ state: 'failed', error: 'the model is unreachable' });
  });
});
