// @vitest-environment jsdom
// A mention cut for the budget (or left out, or failed) says so on its chip: live, after a
// resume (from the session log), and in the rendered view.
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelMessage } from 'ai';
import { mentionNotesOf } from '../../../src/core/mentions/mentionTypes';
import type { MentionOutcome } from '../../../src/core/mentions/mentionTypes';
import { messageMetaSchema } from '../../../src/core/session/sessionRecords';
import { hostEvents } from '../../../src/protocol/hostEvents';
import { uiMessageSchema, type UiMessage } from '../../../src/protocol/uiMessage';
import { ConversationState } from '../../../src/chat/conversations/conversationState';
import { entriesToUiMessages, userUiMessage } from '../../../src/chat/conversations/uiMessages';
import { mountApp, settle, snapshot } from '../webview/webviewHarness';
import type { MountedApp } from '../webview/webviewHarness';

const outcomes: MentionOutcome[] = [
  { mention: { kind: 'file', path: 'big.txt' }, label: '@big.txt', status: 'cut', tokens: 9_000, note: 'cut to 9,900 tokens' },
  { mention: { kind: 'terminal' }, label: '@terminal', status: 'failed', tokens: 0, note: "no command has run in Keel's terminal yet" },
  { mention: { kind: 'git' }, label: '@git', status: 'omitted', tokens: 30, note: 'mentions budget used up' },
  { mention: { kind: 'problems' }, label: '@problems', status: 'included', tokens: 20 },
];
const mentions = outcomes.map((o) => o.mention);

let app: MountedApp | undefined;
afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

describe('mention notes', () => {
  it('keeps a note for each mention not attached whole, and none for the rest', () => {
    expect(mentionNotesOf(outcomes)).toEqual([
      { label: '@big.txt', status: 'cut', note: 'cut to 9,900 tokens' },
      { label: '@terminal', status: 'failed', note: "no command has run in Keel's terminal yet" },
      { label: '@git', status: 'omitted', note: 'mentions budget used up' },
    ]);
  });

  it('puts the notes on the running message\'s chips when the core reports its mentions', () => {
    const sent: { event: string; data: unknown }[] = [];
    const state = new ConversationState(
      {
        emit(event, data) {
          expect(hostEvents[event].safeParse(data).success).toBe(true);
          sent.push({ event, data: structuredClone(data) });
        },
      },
      { now: () => 1, newId: (kind) => `${kind}-1` },
    );
    state.add(userUiMessage('u1', { text: 'look', mentions }, 1, 'done'));
    state.add(userUiMessage('u2', { text: 'next', mentions }, 2, 'queued'));
    state.beginRun('m');
    state.apply({ type: 'mentions', outcomes }, () => false);
    // Each chip that got a note goes out as a patch of that one part.
    const patches = sent.filter((s) => s.event === 'partPatch').map((s) => s.data as { messageId: string });
    expect(patches.map((p) => p.messageId)).toEqual(['u1', 'u1', 'u1']);
    const updated = state.message('u1')!;
    expect(updated.id).toBe('u1');
    expect(updated.parts.filter((p) => p.type === 'mention').map((p) => p.note)).toEqual([
      { status: 'cut', text: 'Cut to fit the budget for mentions: cut to 9,900 tokens' },
      { status: 'failed', text: "Could not be attached: no command has run in Keel's terminal yet" },
      { status: 'omitted', text: 'Not attached: the budget for mentions was used up' },
      undefined,
    ]);
  });

  it('shows the notes again on a resumed conversation, from the session log', () => {
    const meta = messageMetaSchema.parse({ model: 'm', mentions, mentionNotes: mentionNotesOf(outcomes) });
    const message: ModelMessage = { role: 'user', content: 'look' };
    const [ui] = entriesToUiMessages([{ kind: 'message', id: 'e1', parentId: null, ts: new Date(0).toISOString(), message, meta }]);
    expect(uiMessageSchema.parse(ui)).toEqual(ui);
    expect(ui!.parts.filter((p) => p.type === 'mention').map((p) => p.note?.status)).toEqual(['cut', 'failed', 'omitted', undefined]);
  });

  it('shows on the chip that a mention was cut, with the note as its tooltip', async () => {
    app = await mountApp();
    const message: UiMessage = {
      id: 'u1',
      role: 'user',
      status: 'done',
      createdAt: 1,
      parts: [
        { type: 'text', text: 'look' },
        { type: 'mention', mention: { kind: 'file', path: 'big.txt' }, note: { status: 'cut', text: 'Cut to fit the budget for mentions: cut to 9,900 tokens' } },
        { type: 'mention', mention: { kind: 'problems' } },
      ],
    };
    await act(async () => {
      app!.host.emit('snapshot', snapshot({ messages: [message] }));
    });
    await settle();
    const chips = [...app.container.querySelectorAll<HTMLElement>('.mention-chip')];
    expect(chips).toHaveLength(2);
    expect(chips[0]!.textContent).toBe('big.txtcut');
    expect(chips[0]!.title).toBe('Open big.txt\nCut to fit the budget for mentions: cut to 9,900 tokens');
    expect(chips[1]!.textContent).toBe('@problems');
    expect(chips[1]!.querySelector('.mention-chip-note')).toBeNull();
  });
});
