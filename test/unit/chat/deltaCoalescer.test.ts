import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHostBus, createWebviewBus } from '../../../src/protocol/buses';
import { DeltaCoalescer } from '../../../src/chat/bus/deltaCoalescer';
import { createPairTransport } from '../../../src/protocol/pairTransport';
import { appendDelta } from '../../../src/conversation/appendDelta';
import type { UiMessage, UiPart } from '../../../src/protocol/uiMessage';
import { logSpy, recordMessages, settle } from '../protocol/busHarness';

function setup(intervalMs?: number) {
  const [hostEnd, webviewEnd] = createPairTransport();
  const host = createHostBus(hostEnd, logSpy());
  const webview = createWebviewBus(webviewEnd, logSpy());
  const arrived = recordMessages(webviewEnd);
  const coalescer = new DeltaCoalescer(host, intervalMs === undefined ? {} : { intervalMs });
  return { host, webview, arrived, coalescer };
}

interface SeenFrame {
  kind: string;
  name?: string;
  method?: string;
  data?: { messageId?: string; delta?: string };
}

function frames(arrived: unknown[]): SeenFrame[] {
  return arrived as SeenFrame[];
}

function label(frame: SeenFrame): string {
  return frame.name ?? frame.method ?? frame.kind;
}

const finished: UiMessage = {
  id: 'm-1',
  role: 'assistant',
  parts: [{ type: 'text', text: 'done' }],
  status: 'done',
  createdAt: 5,
};

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('DeltaCoalescer', () => {
  it('batches 1000 fast deltas into a few posts with the exact text', async () => {
    const { arrived, coalescer } = setup(30);
    let expected = '';
    for (let i = 0; i < 1000; i++) {
      const delta = `t${i} `;
      expected += delta;
      coalescer.textDelta('m-1', delta);
      await vi.advanceTimersByTimeAsync(1);
    }
    coalescer.flush();
    await settle();

    const posts = frames(arrived);
    expect(posts.every((frame) => frame.name === 'textDelta')).toBe(true);
    // One post per 30 ms window over 1000 ms, plus the final piece.
    expect(posts.length).toBeLessThanOrEqual(35);
    expect(posts.length).toBeGreaterThan(1);
    expect(posts.map((frame) => frame.data?.delta).join('')).toBe(expected);
  });

  it('flushes pending deltas before a following message event', async () => {
    const { arrived, coalescer, webview } = setup();
    const seen: string[] = [];
    webview.on('textDelta', ({ delta }) => seen.push(`delta:${delta.length}`));
    webview.on('message', ({ message }) => seen.push(`message:${message.id}`));

    let expected = '';
    for (let i = 0; i < 1000; i++) {
      expected += 'x';
      coalescer.textDelta('m-1', 'x');
    }
    coalescer.emit('message', { message: finished });
    await settle();

    expect(frames(arrived).map(label)).toEqual(['textDelta', 'message']);
    expect(frames(arrived)[0]?.data?.delta).toBe(expected);
    expect(seen).toEqual(['delta:1000', 'message:m-1']);
  });

  it('sends nothing before the interval and everything when it elapses', async () => {
    const { arrived, coalescer } = setup(30);
    coalescer.textDelta('m-1', 'a');
    coalescer.textDelta('m-1', 'b');

    await vi.advanceTimersByTimeAsync(29);
    expect(arrived).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);

    expect(frames(arrived).map((frame) => frame.data?.delta)).toEqual(['ab']);
  });

  it('keeps the interleaving of text and reasoning so the webview builds the same parts', async () => {
    const { coalescer, webview } = setup();
    const pieces: Array<['text' | 'reasoning', string]> = [
      ['reasoning', 'think '],
      ['reasoning', 'hard'],
      ['text', 'Answer '],
      ['text', 'one'],
      ['reasoning', 'again'],
      ['text', '!'],
    ];
    let posted: UiPart[] = [];
    webview.on('textDelta', ({ delta }) => {
      posted = appendDelta(posted, 'text', delta);
    });
    webview.on('reasoningDelta', ({ delta }) => {
      posted = appendDelta(posted, 'reasoning', delta);
    });

    let direct: UiPart[] = [];
    for (const [type, delta] of pieces) {
      direct = appendDelta(direct, type, delta);
      if (type === 'text') coalescer.textDelta('m-1', delta);
      else coalescer.reasoningDelta('m-1', delta);
    }
    coalescer.flush();
    await settle();

    expect(posted).toEqual(direct);
    expect(posted).toEqual([
      { type: 'reasoning', text: 'think hard' },
      { type: 'text', text: 'Answer one' },
      { type: 'reasoning', text: 'again' },
      { type: 'text', text: '!' },
    ]);
  });

  it('does not merge deltas of different messages', async () => {
    const { arrived, coalescer } = setup();
    coalescer.textDelta('m-1', 'a');
    coalescer.textDelta('m-2', 'b');
    coalescer.textDelta('m-2', 'c');
    coalescer.flush();
    await settle();

    expect(frames(arrived).map((frame) => [frame.data?.messageId, frame.data?.delta])).toEqual([
      ['m-1', 'a'],
      ['m-2', 'bc'],
    ]);
  });

  it('routes delta events passed to emit through the buffer', async () => {
    const { arrived, coalescer } = setup();
    coalescer.emit('textDelta', { messageId: 'm-1', delta: 'a' });
    coalescer.emit('textDelta', { messageId: 'm-1', delta: 'b' });
    await settle();
    expect(arrived).toEqual([]);

    coalescer.dispose();
    await settle();
    expect(frames(arrived).map((frame) => frame.data?.delta)).toEqual(['ab']);
  });

  it('flushes before a request, so an approval never overtakes the text before it', async () => {
    const { arrived, coalescer, webview } = setup();
    webview.handle('toolApproval', () => ({ approved: false, reason: 'not now' }));

    coalescer.textDelta('m-1', 'I will edit a.ts');
    const answer = coalescer.request('toolApproval', {
      id: 'a-1',
      toolCallId: 'tc-1',
      tool: 'edit',
      category: 'write',
      summary: 'a.ts',
      input: {},
      paths: [],
      protected: false,
    });

    await expect(answer).resolves.toEqual({ approved: false, reason: 'not now' });
    expect(frames(arrived).map(label)).toEqual(['textDelta', 'toolApproval']);
  });
});
