// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { assistantMessage, mountApp, settle, snapshot, userMessage } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;
afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

const withRules: UiMessage = {
  ...assistantMessage('a1', 'Renamed the table.'),
  rules: [
    { id: 'sql-conventions', source: 'workspace', event: 'tool_result', actions: [{ type: 'reminder', text: 'Use snake_case.' }] },
    { id: 'done-bell', source: 'user', event: 'task_complete', actions: [{ type: 'notify', text: 'Task finished.' }] },
  ],
};

describe('fired rules in the view', () => {
  it('marks the turn with the number of rules, lists them behind the marker, and shows notices in sight', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot({ messages: [userMessage('u1', 'rename it'), withRules] }));
    await settle();
    const marker = app.byTestId('rules-marker');
    expect(marker.tagName).toBe('DETAILS');
    expect(marker.querySelector('summary')?.textContent?.trim()).toBe('2 rules');
    expect(marker.querySelector('summary')?.getAttribute('title')).toBe('sql-conventions (tool_result)\ndone-bell (task_complete)');
    expect(app.allByTestId('fired-rule').map((li) => li.textContent)).toEqual([
      'sql-conventions workspace · tool_resultreminded the agent: Use snake_case.',
      'done-bell user · task_completenotified you: Task finished.',
    ]);
    expect(app.allByTestId('rule-notice').map((p) => p.textContent?.trim())).toEqual(['Task finished.']);
    // Only the turn with rules has a marker.
    expect(app.allByTestId('rules-marker')).toHaveLength(1);
  });

  it('adds the marker when the host sends the turn again with a rule on it', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot({ messages: [assistantMessage('a1', 'working')] }));
    await settle();
    expect(app.queryByTestId('rules-marker')).toBeNull();
    app.host.emit('message', { message: { ...assistantMessage('a1', 'working'), rules: [withRules.rules![0]!] } });
    await settle();
    expect(app.byTestId('rules-marker').querySelector('summary')?.textContent?.trim()).toBe('1 rule');
    expect(app.queryByTestId('rule-notice')).toBeNull();
  });
});
