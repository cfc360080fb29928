// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { mountApp, settle, snapshot, userMessage } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;

afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

async function start(): Promise<MountedApp> {
  app = await mountApp();
  return app;
}

describe('context notes', () => {
  it('shows the rules in effect in one line that opens to list them, and keeps them across a reload', async () => {
    const mounted = await start();
    mounted.host.emit('snapshot', snapshot({ messages: [userMessage('u1', 'Add a route')] }));
    await settle();
    expect(mounted.queryByTestId('rules-in-effect')).toBeNull();

    const rules = [
      { display: 'AGENTS.md', scope: 'workspace' as const, status: 'included' as const },
      { display: 'src/api/AGENTS.md', scope: 'nested' as const, appliesTo: 'src/api', status: 'cut' as const },
    ];
    mounted.host.emit('rules', { rules });
    await settle();
    const line = mounted.byTestId('rules-in-effect');
    expect(line.querySelector('summary')?.textContent).toContain('Rules in effect: AGENTS.md, src/api/AGENTS.md');
    expect(line.querySelectorAll('li')[1]?.textContent).toBe('src/api/AGENTS.md (for src/api) (only its start fit)');

    mounted.host.emit('snapshot', snapshot({ messages: [userMessage('u1', 'Add a route')], rules }));
    await settle();
    expect(mounted.byTestId('rules-in-effect').querySelector('summary')?.textContent).toContain('AGENTS.md');
  });

  it('says why each of the other agents\' scoped rules applies', async () => {
    const mounted = await start();
    mounted.host.emit('snapshot', snapshot({ messages: [userMessage('u1', 'Fix the handler')] }));
    mounted.host.emit('rules', {
      rules: [
        { display: '.github/copilot-instructions.md', scope: 'workspace', trigger: 'always', status: 'included' },
        { display: '.cursor/rules/react.mdc', scope: 'workspace', trigger: 'files', matched: { glob: 'web/**/*.tsx', file: 'web/App.tsx' }, status: 'included' },
        { display: '.cursor/rules/migrations.mdc', scope: 'workspace', trigger: 'described', status: 'listed' },
      ],
    });
    await settle();
    const items = [...mounted.byTestId('rules-in-effect').querySelectorAll('li')].map((li) => li.textContent);
    expect(items).toEqual([
      '.github/copilot-instructions.md (always)',
      '.cursor/rules/react.mdc (web/**/*.tsx matches web/App.tsx)',
      '.cursor/rules/migrations.mdc (listed by its description: the agent reads it when the task fits)',
    ]);
  });

  it('says when the oldest part of the conversation was left out, until the next run starts', async () => {
    const mounted = await start();
    const state = snapshot().state;
    mounted.host.emit('snapshot', snapshot({ messages: [userMessage('u1', 'Go on')], state: { ...state, running: true } }));
    mounted.host.emit('contextTrimmed', { attempt: 1, maxAttempts: 3, droppedMessages: 12, shortenedResults: 2 });
    await settle();
    const note = mounted.byTestId('trimmed-note').textContent ?? '';
    expect(note).toContain('12 older message(s) were left out');
    expect(note).toContain('2 long tool result(s) shortened');
    expect(note).toContain('The session keeps everything');

    mounted.host.emit('state', { ...state, running: false });
    await settle();
    expect(mounted.queryByTestId('trimmed-note')).not.toBeNull();
    mounted.host.emit('state', { ...state, running: true });
    await settle();
    expect(mounted.queryByTestId('trimmed-note')).toBeNull();
  });
});

describe('config notice', () => {
  it('shows settings Keel ignored while a model is configured, and leaves them to the first-run panel otherwise', async () => {
    const mounted = await start();
    const ignored = '/ws/.vscode/settings.json: "keel.approvalMode": "yolo" is ignored: a workspace may only make approvals stricter than yours ("manual").';
    mounted.host.emit('snapshot', snapshot({ config: { modelConfigured: true, workspaceTrusted: true, problem: ignored } }));
    await settle();
    expect(mounted.byTestId('config-notice').textContent).toContain('"keel.approvalMode": "yolo" is ignored');

    mounted.host.emit('config', { modelConfigured: true, workspaceTrusted: true, problem: null });
    await settle();
    expect(mounted.queryByTestId('config-notice')).toBeNull();

    mounted.host.emit('config', { modelConfigured: false, workspaceTrusted: true, problem: ignored });
    await settle();
    expect(mounted.queryByTestId('config-notice')).toBeNull();
    expect(mounted.byTestId('first-run').textContent).toContain('is ignored');
  });
});
