import { describe, expect, it } from 'vitest';
import { isBusError } from '../../../src/protocol/busError';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { loggedRecords, until } from './chatHarness';
import { useChatRig } from './chatSuite';
import type { ChatRig } from './chatHarness';

const rigs = useChatRig();
let rig: ChatRig | undefined;

describe('choosing the current project from the view', () => {
  it('chooses before the first message and records it in the new session', async () => {
    rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' }, { extraFolders: ['api'] });
    const page = rig.openPage(() => ({ approved: true, scope: 'once' }));
    await until(() => page.store.snapshot?.workspaceProjects !== undefined, 'a snapshot with the projects');
    expect(page.store.snapshot!.workspaceProjects).toMatchObject({ current: 'ws', projects: [{ name: 'ws' }, { name: 'api' }] });

    expect(await page.bus.request('workspaceProject.select', { name: 'api' })).toMatchObject({ current: 'api' });
    rigs.server.load({ turns: [reply.text('hello from api')] });
    await page.bus.request('session.send', { text: 'hello api' });
    await until(() => page.store.messages.some((m) => m.role === 'assistant' && m.status === 'done'), 'the answer');
    await until(() => !rig!.controller.isRunning, 'the run to end');

    const records = loggedRecords<{ type: string; key?: string; value?: string; meta?: { projectName?: string } }>(rig, page);
    const chosen = records.find((r) => r.type === 'config' && r.key === 'currentProject');
    expect(chosen?.value).toMatch(/[\\/]api$/);
    expect(records.filter((r) => r.type === 'message').map((r) => r.meta?.projectName)).toEqual(['api', 'api']);
    expect(page.store.named('workspaceProjects').at(-1)).toMatchObject({ current: 'api' });
  });

  it('refuses a switch while a run is going (here: waiting for an approval)', async () => {
    rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' }, { extraFolders: ['api'] });
    const page = rig.openPage();
    await until(() => page.store.snapshot?.workspaceProjects !== undefined, 'a snapshot with the projects');
    rigs.server.load({ turns: [reply.tool('bash', { command: 'echo hi' })], fallback: { text: 'never' } });
    await page.bus.request('session.send', { text: 'run it' });
    await until(() => page.approvals.length === 1, 'the approval request');
    await expect(page.bus.request('workspaceProject.select', { name: 'api' })).rejects.toSatisfy(
      (err: unknown) => isBusError(err, 'busy') && /stop it or let it finish/.test((err as Error).message),
    );
    await page.bus.request('session.cancel', {});
    await until(() => !rig!.controller.isRunning, 'the run to end');
    expect(await page.bus.request('workspaceProject.select', { name: 'api' })).toMatchObject({ current: 'api' });
  });
});
