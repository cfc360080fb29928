// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { click, mountApp, pressKey, settle, snapshot, typeInto } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;

afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

async function ready(overrides: Parameters<typeof snapshot>[0] = {}) {
  const mounted = await mountApp();
  app = mounted;
  const calls: { method: string; params: unknown }[] = [];
  const record = (method: string, result: unknown) =>
    vi.fn((params: unknown) => {
      calls.push({ method, params });
      return result;
    });
  mounted.host.handle('mode.set', record('mode.set', { mode: 'plan' }) as never);
  mounted.host.handle('plan.execute', record('plan.execute', { messageId: 'm-1', queued: false }) as never);
  mounted.host.handle('plan.open', record('plan.open', { opened: true }) as never);
  mounted.host.handle('plan.refine', record('plan.refine', { messageId: 'm-2', queued: false }) as never);
  mounted.host.handle('plan.discard', record('plan.discard', { plan: { id: 'plan-1', status: 'discarded', steps: 2 } }) as never);
  mounted.host.emit('snapshot', snapshot(overrides));
  await settle();
  return { mounted, calls };
}

const planState = { running: false, mode: 'plan' as const, approvalMode: 'manual' as const, model: 'gpt-x', queued: 0 };

describe('plan mode in the view', () => {
  it('shows a banner and a pressed Plan switch only in plan mode; the switch asks the host to change mode', async () => {
    const { mounted, calls } = await ready();
    expect(mounted.queryByTestId('plan-banner')).toBeNull();
    expect(mounted.byTestId('mode-act').getAttribute('aria-pressed')).toBe('true');
    await click(mounted.byTestId('mode-plan'));
    await settle();
    expect(calls).toEqual([{ method: 'mode.set', params: { mode: 'plan' } }]);
    mounted.host.emit('state', planState);
    await settle();
    expect(mounted.byTestId('plan-banner').textContent).toContain('changes no files');
    expect(mounted.byTestId('mode-plan').getAttribute('aria-pressed')).toBe('true');
  });

  it('offers Execute, Open, Refine and Discard under an open plan, and hides them once it is settled', async () => {
    const { mounted, calls } = await ready({ state: planState, plan: { id: 'plan-1', status: 'edited', steps: 2 } });
    expect(mounted.byTestId('plan-actions').textContent).toContain('2 steps · edited');
    await click(mounted.byTestId('plan-open'));
    await click(mounted.byTestId('plan-execute'));
    await settle();
    expect(calls.map((c) => [c.method, c.params])).toEqual([
      ['plan.open', { planId: 'plan-1' }],
      ['plan.execute', { planId: 'plan-1' }],
    ]);
    mounted.host.emit('plan', { plan: { id: 'plan-1', status: 'executed', steps: 2 } });
    await settle();
    expect(mounted.queryByTestId('plan-actions')).toBeNull();
  });

  it('Refine takes the feedback and sends it with Enter; Discard settles the plan', async () => {
    const { mounted, calls } = await ready({ state: planState, plan: { id: 'plan-1', status: 'proposed', steps: 2 } });
    await click(mounted.byTestId('plan-refine'));
    const feedback = mounted.byTestId('plan-feedback') as HTMLTextAreaElement;
    await typeInto(feedback, 'also handle NaN');
    await pressKey(feedback, { key: 'Enter' });
    await settle();
    expect(calls).toEqual([{ method: 'plan.refine', params: { planId: 'plan-1', feedback: 'also handle NaN' } }]);
    expect(mounted.queryByTestId('plan-feedback')).toBeNull();
    await click(mounted.byTestId('plan-discard'));
    await settle();
    expect(calls.at(-1)).toEqual({ method: 'plan.discard', params: { planId: 'plan-1' } });
  });

  it('unfolds the todo checklist while the agent runs', async () => {
    const todos = [
      { id: 'step-1', content: 'Change average', status: 'in_progress' as const },
      { id: 'step-2', content: 'Add a test', status: 'pending' as const },
    ];
    const { mounted } = await ready({ todos });
    expect(mounted.byTestId('todo-panel').hasAttribute('open')).toBe(false);
    mounted.host.emit('state', { ...planState, mode: 'act', running: true });
    await settle();
    const panel = mounted.byTestId('todo-panel');
    expect(panel.hasAttribute('open')).toBe(true);
    expect([...panel.querySelectorAll('li')].map((li) => [li.getAttribute('data-status'), li.textContent])).toEqual([
      ['in_progress', 'Change average'],
      ['pending', 'Add a test'],
    ]);
  });
});

describe('an executed plan in the conversation', () => {
  it('shows "Executing plan: <title>" with the plan folded, not the instructions', async () => {
    const executed = {
      id: 'u-1',
      role: 'user' as const,
      status: 'done' as const,
      createdAt: 1,
      parts: [{ type: 'planExecution' as const, title: 'Make average safe', plan: '## Goal\nMake average safe\n## Steps\n1. Change it' }],
    };
    const { mounted } = await ready({ messages: [executed] });
    const shown = mounted.byTestId('plan-execution');
    expect(shown.querySelector('p')?.textContent).toBe(' Executing plan: Make average safe');
    const details = shown.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.textContent).toContain('Change it');
    expect(mounted.byTestId('message').textContent).not.toMatch(/<plan>|Execute this plan/);
  });
});
