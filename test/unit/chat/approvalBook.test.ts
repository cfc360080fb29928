import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ApprovalAnswer, ApprovalRequest } from '../../../src/core/tools/tool';
import { toolApprovalAnswerSchema, toolApprovalRequestSchema } from '../../../src/protocol/toolApproval';
import type { ToolApprovalAnswer } from '../../../src/protocol/toolApproval';
import { ApprovalBook, proposedChange } from '../../../src/chat/approvals/approvalBook';
import { lineDiffStats } from '../../../src/chat/parts/lineDiffStats';

function request(over: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    toolCallId: 'c1',
    tool: 'write',
    category: 'write',
    input: { file_path: 'a.ts', content: 'new\n', extra: undefined },
    summary: 'a.ts',
    paths: ['a.ts'],
    protected: false,
    rule: 'ask',
    change: { path: '/w/a.ts', displayPath: 'a.ts', before: 'old\n', after: 'new\n' },
    ...over,
  };
}

describe('ApprovalBook', () => {
  it('turns a core request into a protocol request and resolves with the decision', async () => {
    const book = new ApprovalBook('ap-');
    const { approval, answer } = book.add(request());
    expect(toolApprovalRequestSchema.parse(approval.request)).toEqual(approval.request);
    expect(approval.request).toMatchObject({
      id: 'ap-1',
      toolCallId: 'c1',
      tool: 'write',
      input: { file_path: 'a.ts', content: 'new\n' },
      change: { kind: 'edit', added: 1, removed: 1, before: 'old\n', after: 'new\n' },
    });
    expect(book.pending().map((a) => a.request.id)).toEqual(['ap-1']);
    expect(book.settleWith('ap-1', { approved: true, scope: 'session' })).toBe(true);
    await expect(answer).resolves.toEqual({ approved: true, scope: 'session' });
    expect(approval.settled.aborted).toBe(true);
    expect(book.settleWith('ap-1', { approved: false })).toBe(false);
    expect(book.size).toBe(0);
  });

  it('rejects everything still open when the run stops', async () => {
    const book = new ApprovalBook('ap-');
    const first = book.add(request());
    const second = book.add(request({ toolCallId: 'c2' }));
    expect(book.byToolCall('c2')?.request.id).toBe('ap-2');
    expect(book.rejectAll('stopped')).toBe(2);
    await expect(first.answer).resolves.toEqual({ approved: false, reason: 'stopped' });
    await expect(second.answer).resolves.toEqual({ approved: false, reason: 'stopped' });
    expect(book.pending()).toEqual([]);
  });

  it('keeps the full change for the diff editor', () => {
    const book = new ApprovalBook('ap-');
    const { approval } = book.add(request());
    expect(book.get(approval.request.id)?.change?.after).toBe('new\n');
  });
});

describe('the page\'s answer', () => {
  it('is the core\'s answer without the host-only fields', () => {
    expectTypeOf<ToolApprovalAnswer>().toEqualTypeOf<Omit<ApprovalAnswer, 'content' | 'note' | 'readOnlyWorkspace'>>();
    expect(() => toolApprovalAnswerSchema.parse({ approved: true, content: 'written by the page' })).toThrow();
    expect(() => toolApprovalAnswerSchema.parse({ decision: 'approve' })).toThrow();
  });

  it('settles as given, except that a protected path never gets the session scope; a reason is trimmed, a blank one dropped', async () => {
    const answered = async (answer: ApprovalAnswer, protectedPath: boolean): Promise<ApprovalAnswer> => {
      const book = new ApprovalBook('ap-');
      const added = book.add(request({ protected: protectedPath }));
      expect(book.settleWith(added.approval.request.id, answer)).toBe(true);
      return added.answer;
    };
    expect(await answered({ approved: true, scope: 'once' }, false)).toEqual({ approved: true, scope: 'once' });
    expect(await answered({ approved: true, scope: 'session' }, false)).toEqual({ approved: true, scope: 'session' });
    expect(await answered({ approved: true, scope: 'session' }, true)).toEqual({ approved: true, scope: 'once' });
    expect(await answered({ approved: false, reason: '  use tabs ' }, false)).toEqual({ approved: false, reason: 'use tabs' });
    expect(await answered({ approved: false, reason: ' ' }, false)).toEqual({ approved: false });
  });
});

describe('proposedChange', () => {
  it('names creates and deletes and leaves out texts over the cap', () => {
    expect(proposedChange({ path: '/w/n', displayPath: 'n', before: null, after: 'a\nb\n' })).toMatchObject({ kind: 'create', added: 2, removed: 0, before: null });
    expect(proposedChange({ path: '/w/d', displayPath: 'd', before: 'a\n', after: null })).toMatchObject({ kind: 'delete', added: 0, removed: 1, after: null });
    const huge = 'x\n'.repeat(150_000);
    const big = proposedChange({ path: '/w/b', displayPath: 'b', before: huge, after: `${huge}y\n` });
    expect(big).toMatchObject({ kind: 'edit', added: 1, removed: 0 });
    expect('before' in big).toBe(false);
    expect('after' in big).toBe(false);
  });
});

describe('lineDiffStats', () => {
  it('counts like a line diff', () => {
    expect(lineDiffStats('a\nb\nc\n', 'a\nB\nc\n')).toEqual({ added: 1, removed: 1 });
    expect(lineDiffStats('a\nb\nc\n', 'a\nc\n')).toEqual({ added: 0, removed: 1 });
    expect(lineDiffStats('a\nc', 'a\nb\nc')).toEqual({ added: 1, removed: 0 });
    expect(lineDiffStats(null, '')).toEqual({ added: 0, removed: 0 });
    expect(lineDiffStats('same\r\n', 'same\n')).toEqual({ added: 0, removed: 0 });
    // A move: one line out, one in.
    expect(lineDiffStats('1\n2\n3\n4\n', '2\n3\n4\n1\n')).toEqual({ added: 1, removed: 1 });
  });

  // Its cost is measured in test/bench/chatHost.bench.ts; unbounded, this count would outlast the test timeout.
  it('counts a rewrite of a large file as every line changed', () => {
    const a = Array.from({ length: 50_000 }, (_, i) => `line ${i}`).join('\n');
    const b = Array.from({ length: 50_000 }, (_, i) => `other ${i}`).join('\n');
    expect(lineDiffStats(a, b)).toEqual({ added: 50_000, removed: 50_000 });
  });
});
