/// <reference types="mocha" />
// Long conversations in the real view: /compact with the scripted model (the divider, the
// summary, what the next request carries), and a conversation another process is writing
// opened read-only.
import * as assert from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { keelHome } from '../../src/core/paths';
import type { Session } from '../../src/core/session/session';
import { SessionStore } from '../../src/core/session/sessionStore';
import { reloadWindow } from './harness/workbench.ts';
import { useChatRig } from './support/useChatRig.ts';

/**
 * The pid of this run's extension host: the process with VS Code's extension-host flag whose
 * environment has this run's KEEL_HOME (other code-servers on the machine have their own).
 * After earlier tests reloaded the window, the host of a closed window may linger a while:
 * the newest one is the window's.
 */
function extensionHostPid(): number {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(join('/proc', name, 'cmdline'), 'utf8');
      if (!cmdline.includes('--type=extensionHost')) continue;
      const env = readFileSync(join('/proc', name, 'environ'), 'utf8').split('\0');
      if (env.includes(`KEEL_HOME=${process.env.KEEL_HOME}`)) found.push(Number(name));
    } catch {
      // A process that ended while we looked, or one we may not read: not ours.
      continue;
    }
  }
  if (found.length === 0) throw new Error('found no extension host of this run');
  return found.sort((a, b) => startTicks(b) - startTicks(a))[0]!;
}

/** When a process started, in clock ticks since boot (field 22 of /proc/PID/stat). */
function startTicks(pid: number): number {
  const stat = readFileSync(join('/proc', String(pid), 'stat'), 'utf8');
  // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

const SUMMARY = '## Goal\nThe person is naming the release "Blue Heron".\n## Open tasks\nWrite the changelog.';
const TIMEOUT = 60_000;

describe('Keel long conversations in code-server', () => {
  let held: Session | undefined;
  const rig = useChatRig({ cleanup: () => held?.close() });

  it('/compact shows a divider with the summary, and the next request carries the summary instead of the old messages', async function () {
    this.timeout(180_000);
    rig.server.load({
      turns: [
        reply.text('Noted: the codename is Blue Heron.', { match: { lastUserIncludes: 'codename-alpha' } }),
        reply.text(SUMMARY, { match: { systemIncludes: 'You summarize a conversation' } }),
        reply.text('The changelog comes next.', { match: { lastUserIncludes: 'what-next-beta' } }),
      ],
    });
    await rig.chat.send('The codename-alpha of the release is Blue Heron.');
    assert.strictEqual(await rig.chat.finishedAnswer(), 'Noted: the codename is Blue Heron.');

    const input = rig.chat.composer();
    await input.click();
    await input.fill('/compact');
    await input.press('Enter');
    const divider = rig.chat.frame.locator('[data-testid="compaction-divider"][data-status="done"]');
    await divider.waitFor({ timeout: TIMEOUT });
    assert.match(await divider.innerText(), /Conversation compacted: 2 earlier messages summarized/);
    // The summary opens from the divider.
    await divider.locator('summary').click();
    await divider.getByTestId('compaction-summary').getByText('Write the changelog.').waitFor({ timeout: TIMEOUT });
    // The summarization request carried the conversation.
    assert.match(JSON.stringify(rig.server.requests[1]?.body.messages), /codename-alpha of the release is Blue Heron/);

    await rig.chat.send('what-next-beta?');
    assert.strictEqual(await rig.chat.finishedAnswer(), 'The changelog comes next.');
    const sent = JSON.stringify(rig.server.requests[2]?.body.messages);
    assert.match(sent, /Write the changelog\./, 'the request carries the summary');
    assert.doesNotMatch(sent, /codename-alpha/, 'the request no longer carries the compacted messages');
    assert.match(sent, /what-next-beta/);
    // The old messages are still on screen above the divider.
    assert.strictEqual(await rig.chat.byRole('user').filter({ hasText: 'codename-alpha' }).count(), 1);
  });

  it('opens a conversation that another process is writing read-only: banner, composer disabled with the reason', async function () {
    this.timeout(180_000);
    await rig.chat.newChat().catch(() => undefined);
    // This test process plays the other window: it holds the session's lock while the view opens it.
    const store = new SessionStore({ home: keelHome(process.env), workspace: { root: rig.workspace } });
    held = store.create();
    held.appendMessage({ role: 'user', content: 'A conversation held-elsewhere-gamma' });
    held.appendMessage({ role: 'assistant', content: 'It is being written in another window.' });

    await rig.chat.frame.getByTestId('show-sessions').click();
    await rig.chat.frame.getByTestId('session-item').filter({ hasText: 'held-elsewhere-gamma' }).click();
    const banner = rig.chat.frame.getByTestId('readonly-banner');
    await banner.waitFor({ timeout: TIMEOUT });
    assert.match(await banner.innerText(), new RegExp(`Read-only: it is open for writing in another Keel process \\(pid ${process.pid}\\)`));
    await rig.chat.byRole('user').filter({ hasText: 'held-elsewhere-gamma' }).waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await rig.chat.composer().isDisabled(), true);
    assert.match((await rig.chat.composer().getAttribute('placeholder')) ?? '', /Read-only here/);

    // Nothing the view did wrote to the log: the holder can still append, and its log reads back whole.
    held.appendMessage({ role: 'user', content: 'still mine' });
    const before = rig.server.requests.length;
    held.close();
    held = undefined;
    const reopened = store.open(store.list().find((s) => s.title.includes('held-elsewhere-gamma'))!.id, { readOnly: true });
    assert.deepStrictEqual(reopened.warnings, []);
    assert.strictEqual(reopened.history().length, 3);
    assert.strictEqual(rig.server.requests.length, before);

    // New Chat from the banner leaves read-only mode.
    await banner.getByRole('button', { name: 'New Chat' }).click();
    await banner.waitFor({ state: 'detached', timeout: TIMEOUT });
    assert.strictEqual(await rig.chat.composer().isDisabled(), false);
  });

  it('after the extension host is killed mid-stream, the conversation comes back and says the reply was cut off', async function () {
    this.timeout(240_000);
    await rig.chat.newChat().catch(() => undefined);
    rig.server.load({
      turns: [
        { ...reply.text(`The beginning of a slow answer ${'word '.repeat(2000)}`), chunkSize: 4, tokensPerSecond: 20, match: { lastUserIncludes: 'crash-delta' } },
        reply.text('Back after the crash.', { match: { lastUserIncludes: 'after-crash-epsilon' } }),
      ],
    });
    await rig.chat.send('Tell me a long story crash-delta');
    await rig.chat.frame.locator('[data-testid="message"][data-role="assistant"][data-status="streaming"]', { hasText: 'beginning of a slow' }).waitFor({ timeout: TIMEOUT });
    process.kill(extensionHostPid(), 'SIGKILL');

    await reloadWindow(rig.page);
    await rig.chat.open();
    // Open the conversation again (the view may already have restored it).
    const note = rig.chat.frame.getByTestId('interruption-note');
    if (!(await rig.chat.byRole('user').filter({ hasText: 'crash-delta' }).count())) {
      await rig.chat.frame.getByTestId('show-sessions').click();
      await rig.chat.frame.getByTestId('session-item').filter({ hasText: 'crash-delta' }).click();
    }
    await note.waitFor({ timeout: TIMEOUT });
    assert.match(await note.innerText(), /Keel stopped before this finished.*the reply to the message above was cut off/s);
    assert.strictEqual(await rig.chat.frame.getByTestId('readonly-banner').count(), 0);

    await rig.chat.send('after-crash-epsilon: are you there?');
    assert.strictEqual(await rig.chat.finishedAnswer(), 'Back after the crash.');
    const sent = JSON.stringify(rig.server.requests.at(-1)?.body.messages);
    assert.match(sent, /crash-delta/);
    assert.match(sent, /Keel stopped before the previous request finished.*after-crash-epsilon/);
  });
});
