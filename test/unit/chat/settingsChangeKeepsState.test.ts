// Issue #21: a settings change rebuilds the core (Context), never the conversation's state.
// Read a file, pick another model, ask for an edit of that file: the edit is proposed and applied.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { settle, until } from './chatHarness';
import { useChatRig } from './chatSuite';

const rigs = useChatRig();

describe('a settings change keeps the conversation', () => {
  it('a file read before the model changed may be edited after it', async () => {
    const rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
    rigs.server.load({
      turns: [
        { ...reply.tool('read', { file_path: 'hello.txt' }), match: { lastUserIncludes: 'read hello' } },
        reply.text('It says hello.'),
        { ...reply.tool('edit', { file_path: 'hello.txt', old_string: 'hello', new_string: 'goodbye' }), match: { lastUserIncludes: 'edit hello' } },
        reply.text('Edited.'),
      ],
    });
    const page = rig.openPage(() => ({ approved: true, scope: 'once' }));
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
    await page.bus.request('session.send', { text: 'read hello.txt' });
    await until(() => !rig.controller.isRunning && page.store.messages.at(-1)?.status === 'done', 'the answer about the read');
    const before = rig.loader.peek()!.ctx;

    // The person picks another model: the settings change and the core is rebuilt.
    rig.settings = { ...rig.settings, model: 'scripted-other' };
    rig.loader.invalidate('settings changed');
    rig.controller.configChanged();
    await until(() => rig.loader.peek() !== undefined && rig.loader.peek()!.ctx !== before && !rig.loader.isStale(), 'the rebuilt core');
    expect(rig.loader.peek()!.ctx.config.model).toContain('scripted-other');

    await page.bus.request('session.send', { text: 'edit hello.txt' });
    await until(() => !rig.controller.isRunning && page.store.messages.at(-1)?.status === 'done', 'the answer about the edit');
    await settle();
    const results = JSON.stringify(page.store.messages);
    expect(results).not.toContain('has not been read in this session');
    expect(page.approvals.map((a) => a.tool)).toEqual(['edit']);
    expect(readFileSync(join(rig.workspace, 'hello.txt'), 'utf8')).toBe('goodbye\n');
  });
});
