import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../src/core/tools/tool';
import type { ToolApprovalRequest, ToolApprovalAnswer } from '../../../src/protocol/toolApproval';
import type { UiError } from '../../../src/protocol/sessionState';
import { ApprovalFlow } from '../../../src/chat/approvals/approvalFlow';
import type { ChangeApprovalHooks } from '../../../src/chat/approvals/approvalFlow';
import type { ViewLink } from '../../../src/chat/bus/viewSync';

function changeRequest(): ApprovalRequest {
  return {
    toolCallId: 'c1',
    tool: 'edit',
    category: 'write',
    input: { file_path: 'a.ts' },
    summary: 'Edit a.ts',
    paths: ['a.ts'],
    protected: false,
    rule: 'needs approval',
    change: { path: '/w/a.ts', displayPath: 'a.ts', before: 'one\ntwo\n', after: 'ONE\ntwo\n' },
  };
}

/** A view whose approval requests the test answers, and the hooks' calls, in order. */
function rig(amend: ChangeApprovalHooks['amend']) {
  const asked: { request: ToolApprovalRequest; answer(result: ToolApprovalAnswer): void; signal?: AbortSignal }[] = [];
  const calls: string[] = [];
  const errors: UiError[] = [];
  const view: ViewLink = {
    isReady: () => true,
    outbox: {
      emit: () => undefined,
      flush: () => undefined,
      request: ((_method: string, request: ToolApprovalRequest, opts?: { signal?: AbortSignal }) =>
        new Promise<ToolApprovalAnswer>((answer, reject) => {
          asked.push({ request, answer, signal: opts?.signal });
          opts?.signal?.addEventListener('abort', () => reject(new Error('withdrawn')), { once: true });
        })) as ViewLink['outbox']['request'],
    },
  };
  const hooks: ChangeApprovalHooks = {
    opened: (id) => void calls.push(`opened ${id}`),
    amend: (id, answer) => {
      calls.push(`amend ${id}`);
      return amend(id, answer);
    },
    closed: (id) => void calls.push(`closed ${id}`),
  };
  const flow = new ApprovalFlow({
    state: { awaitingApproval: () => undefined, error: (e) => void errors.push(e) },
    syncedView: () => view,
    log: () => undefined,
    onChange: () => undefined,
    changes: hooks,
  });
  return { flow, asked, calls, errors };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

describe('ApprovalFlow with the diff editor', () => {
  it('an approval from the card carries what the person settled on in the diff editor', async () => {
    const { flow, asked, calls } = rig(async (_id, answer) => ({ ...answer, content: 'ONE\ntwo\nthree\n', note: 'edited' }));
    const answer = flow.ask(changeRequest(), new AbortController().signal);
    await until(() => asked.length === 1);
    asked[0]!.answer({ approved: true, scope: 'once' });
    await expect(answer).resolves.toEqual({ approved: true, scope: 'once', content: 'ONE\ntwo\nthree\n', note: 'edited' });
    expect(calls).toEqual([`opened ${asked[0]!.request.id}`, `amend ${asked[0]!.request.id}`, `closed ${asked[0]!.request.id}`]);
  });

  it('a decision from the editor settles the same approval and withdraws the card', async () => {
    const { flow, asked } = rig(async (_id, answer) => answer);
    const answer = flow.ask(changeRequest(), new AbortController().signal);
    await until(() => asked.length === 1);
    const id = asked[0]!.request.id;
    expect(await flow.decide(id, { approved: false, reason: 'not this' })).toBe(true);
    await expect(answer).resolves.toEqual({ approved: false, reason: 'not this' });
    expect(asked[0]!.signal?.aborted).toBe(true);
    expect(await flow.decide(id, { approved: true })).toBe(false);
  });

  it('a rejection is not amended, and a second answer while the first is completed is ignored', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { flow, asked, calls } = rig(async (_id, answer) => {
      await held;
      return answer;
    });
    const answer = flow.ask(changeRequest(), new AbortController().signal);
    await until(() => asked.length === 1);
    const id = asked[0]!.request.id;
    const first = flow.decide(id, { approved: true, scope: 'once' });
    expect(await flow.decide(id, { approved: false })).toBe(false);
    release();
    expect(await first).toBe(true);
    await expect(answer).resolves.toEqual({ approved: true, scope: 'once' });
    expect(calls.filter((c) => c.startsWith('amend'))).toHaveLength(1);
  });

  it('when the reviewed content cannot be read, nothing is written and the person is told', async () => {
    const { flow, asked, errors } = rig(async () => {
      throw new Error('the proposal editor went away');
    });
    const answer = flow.ask(changeRequest(), new AbortController().signal);
    await until(() => asked.length === 1);
    asked[0]!.answer({ approved: true, scope: 'once' });
    const settled = await answer;
    expect(settled.approved).toBe(false);
    expect(settled.reason).toMatch(/could not read the reviewed change to a\.ts.*nothing was written/);
    expect(errors[0]?.message).toMatch(/the proposal editor went away/);
  });
});
