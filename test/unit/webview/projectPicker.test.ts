// @vitest-environment jsdom
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Projects } from '../../../src/protocol/sessionState';
import { mountApp, settle, snapshot } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;

afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

const twoProjects: Projects = {
  projects: [
    { name: 'web', path: '/ws/web', type: 'TypeScript (Node.js)', branch: 'main' },
    { name: 'api', path: '/ws/api', type: 'Go', branch: null },
  ],
  current: 'web',
};

type Picker = HTMLElement & { value: string };

describe('the project picker', () => {
  it('is not there for a single folder', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot({ projects: { projects: [twoProjects.projects[0]!], current: 'web' } }));
    await settle();
    expect(app.queryByTestId('project-picker')).toBeNull();
  });

  it('shows the projects with their branch, asks the host to switch, and follows the projects event', async () => {
    app = await mountApp();
    const select = vi.fn(({ name }: { name: string }): Projects => ({ ...twoProjects, current: name }));
    app.host.handle('project.select', select);
    app.host.emit('snapshot', snapshot({ projects: twoProjects }));
    await settle();

    const picker = app.byTestId('project-picker') as Picker;
    expect([...picker.querySelectorAll('vscode-option')].map((o) => o.textContent)).toEqual(['web (main)', 'api']);
    expect(picker.value).toBe('web');
    await act(async () => {
      picker.value = 'api';
      picker.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await settle();
    expect(select).toHaveBeenCalledWith({ name: 'api' }, expect.anything());
    expect(app.store.getMeta().projects?.current).toBe('api');

    app.host.emit('projects', { ...twoProjects, current: 'web' });
    await settle();
    expect((app.byTestId('project-picker') as Picker).value).toBe('web');
  });

  it('is disabled while a run is going', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot({ projects: twoProjects, state: { running: true, mode: 'act', approvalMode: 'manual', model: 'gpt-x', queued: 0 } }));
    await settle();
    expect(app.byTestId('project-picker').hasAttribute('disabled')).toBe(true);
  });
});
