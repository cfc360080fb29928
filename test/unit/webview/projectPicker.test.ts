// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkspaceProjects } from '../../../src/protocol/sessionState';
import { chooseOption, mountApp, optionLabels, settle, snapshot } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;

afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

const twoProjects: WorkspaceProjects = {
  projects: [
    { name: 'web', path: '/ws/web', type: 'TypeScript (Node.js)', branch: 'main' },
    { name: 'api', path: '/ws/api', type: 'Go', branch: null },
  ],
  current: 'web',
};

describe('the project picker', () => {
  it('is not there for a single folder', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot({ workspaceProjects: { projects: [twoProjects.projects[0]!], current: 'web' } }));
    await settle();
    expect(app.queryByTestId('project-picker')).toBeNull();
  });

  it('shows the projects with their branch, asks the host to switch, and follows the projects event', async () => {
    app = await mountApp();
    const select = vi.fn(({ name }: { name: string }): WorkspaceProjects => ({ ...twoProjects, current: name }));
    app.host.handle('workspaceProject.select', select);
    app.host.emit('snapshot', snapshot({ workspaceProjects: twoProjects }));
    await settle();

    const picker = app.byTestId('project-picker');
    expect(optionLabels(picker)).toEqual(['web (main)', 'api']);
    expect(picker.textContent).toBe('web (main)');
    await chooseOption(picker, 'api');
    await settle();
    expect(select).toHaveBeenCalledWith({ name: 'api' }, expect.anything());
    expect(app.store.getMeta().workspaceProjects?.current).toBe('api');

    app.host.emit('workspaceProjects', { ...twoProjects, current: 'web' });
    await settle();
    expect(app.byTestId('project-picker').textContent).toBe('web (main)');
  });

  it('is disabled while a run is going', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot({ workspaceProjects: twoProjects, state: { running: true, mode: 'act', approvalMode: 'manual', model: 'gpt-x', queued: 0 } }));
    await settle();
    expect(app.byTestId('project-picker').hasAttribute('disabled')).toBe(true);
  });
});
