/// <reference types="mocha" />
// Issue #21 in a real extension host: picking another model rebuilds Keel's core, and the
// conversation keeps what it knows. A file read before the change may be edited after it.
import * as assert from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from './support/chatFixture';
import { MODEL, keelHomeForRun, setModelSettings, workspaceFolder } from './support/keelSetup';
import { lastToolResult } from './support/modelRequests';

keelHomeForRun();

describe('a settings change in the middle of a conversation', () => {
  const chat = useConfiguredChat();
  let target: string;
  let original: string;

  before(() => {
    target = join(workspaceFolder(), 'src', 'math.ts');
    original = readFileSync(target, 'utf8');
  });
  after(async () => {
    writeFileSync(target, original);
    await setModelSettings({ baseUrl: chat.server.baseURL, model: MODEL });
  });

  it('keeps the files the conversation read: an edit after a model change is proposed, not refused', async () => {
    const firstLine = original.split('\n')[0]!;
    chat.server.load({
      turns: [
        reply.tool('read', { file_path: 'src/math.ts' }, { match: { lastUserIncludes: 'read math' } }),
        reply.text('I read it.'),
        reply.tool('edit', { file_path: 'src/math.ts', old_string: firstLine, new_string: `// checked\n${firstLine}` }, { match: { lastUserIncludes: 'edit math' } }),
        reply.text('Edited.', { match: { lastToolResultIncludes: 'Edited' } }),
      ],
    });
    await chat.page.sendAndSettle('read math.ts');

    // The person picks another model: the core is rebuilt with the next message.
    await setModelSettings({ baseUrl: chat.server.baseURL, model: 'scripted-other' });

    const from = chat.page.events.length;
    await chat.page.send('edit math.ts');
    const asked = await chat.page.nextApproval();
    assert.strictEqual(asked.request.tool, 'edit', 'the edit is proposed');
    assert.strictEqual(asked.request.change?.kind, 'edit');
    asked.answer({ approved: true, scope: 'once' });
    await chat.page.runEnded(from);

    const last = chat.server.requests.at(-1)!;
    assert.strictEqual((last.body as { model?: string }).model, 'scripted-other', 'the edit ran on the model picked');
    assert.doesNotMatch(lastToolResult(last), /has not been read/);
    assert.strictEqual(readFileSync(target, 'utf8'), `// checked\n${original}`);
  });
});
