import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsHost } from '../../../src/core/fsHost';
import type { Host } from '../../../src/core/host';
import { ChangeJournal, journalBlobDir } from '../../../src/core/journal/changeJournal';
import type { RecordedChange } from '../../../src/core/journal/changeJournal';
import type { Session } from '../../../src/core/session/session';
import { FileRestore } from '../../../src/core/snapshots/fileRestore';
import { sandbox, TempDirs } from '../session/sessionFixtures';
import type { Sandbox } from '../session/sessionFixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

interface Env extends Sandbox {
  session: Session;
  journal: ChangeJournal;
  /** The product's undo over the journal's records (as Project builds it, without command snapshots). */
  restore: FileRestore;
  recorded: RecordedChange[];
  /** The host a tool call gets: writes are journaled under `toolCallId`. */
  tool(toolCallId: string): Host;
  file(name: string): string;
}

function setup(capBytes?: number): Env {
  const box = sandbox(dirs);
  const session = box.store.create();
  const host = createFsHost();
  const journal = new ChangeJournal({ session, host, display: (p) => p.slice(box.root.length + 1), ...(capBytes ? { capBytes } : {}) });
  const recorded: RecordedChange[] = [];
  return {
    ...box,
    session,
    journal,
    restore: restoreOver(session, journal),
    recorded,
    tool: (toolCallId) => journal.hostFor(toolCallId, (r) => recorded.push(r)),
    file: (name) => join(box.root, name),
  };
}

function restoreOver(session: Session, journal: ChangeJournal): FileRestore {
  const snapshots = {
    repoFor(): never {
      throw new Error('these tests record no command snapshots');
    },
  };
  return new FileRestore({ session, host: createFsHost(), snapshots, onReverted: (files) => journal.noteReverted(files) });
}

describe('ChangeJournal', () => {
  it('records each applied change in the session log with before and after hashes', async () => {
    const env = setup();
    writeFileSync(env.file('a.ts'), 'one\n');
    await env.tool('call-1').writeFile(env.file('a.ts'), 'two\n');
    await env.tool('call-2').writeFile(env.file('new.ts'), 'fresh\n');
    expect(env.recorded.map((r) => [r.entry.displayPath, r.entry.kind, r.entry.undoable])).toEqual([
      ['a.ts', 'edit', true],
      ['new.ts', 'create', true],
    ]);
    const log = readFileSync(env.session.path, 'utf8');
    expect(log).toContain('"type":"change"');
    const change = env.session.changes()[0]!;
    expect(change.beforeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(change.afterHash).toMatch(/^[0-9a-f]{64}$/);
    expect(env.session.changes()[1]!.beforeHash).toBeNull();
  });

  it('a write that changes nothing is not recorded', async () => {
    const env = setup();
    writeFileSync(env.file('a.ts'), 'same\n');
    await env.tool('call-1').writeFile(env.file('a.ts'), 'same\n');
    expect(env.session.changes()).toHaveLength(0);
  });

  it('undo puts the exact bytes back (CRLF, BOM, no final newline) and says so once', async () => {
    const env = setup();
    const original = '\uFEFFline one\r\nline two';
    writeFileSync(env.file('w.cs'), original);
    await env.tool('call-1').writeFile(env.file('w.cs'), '\uFEFFline one\r\nline 2\r\n');
    const id = env.recorded[0]!.entry.id;
    const outcome = await env.restore.undoChange(id);
    expect(outcome.status).toBe('reverted');
    expect(readFileSync(env.file('w.cs'), 'utf8')).toBe(original);
    expect(env.journal.entry(id)?.reverted).toBe(true);
    expect((await env.restore.undoChange(id)).status).toBe('nothing');
  });

  it('the model hears once which files were put back', async () => {
    const env = setup();
    writeFileSync(env.file('a.ts'), 'v1\n');
    await env.tool('call-1').writeFile(env.file('a.ts'), 'v2\n');
    expect(env.journal.takeRevertNote()).toBe('');
    await env.restore.undoChange(env.recorded[0]!.entry.id);
    expect(env.journal.takeRevertNote()).toMatch(/undid Keel's changes to a\.ts: it is back as before those changes\. Read it again/);
    expect(env.journal.takeRevertNote()).toBe('');
  });

  it('undoing a created file removes it', async () => {
    const env = setup();
    await env.tool('call-1').writeFile(env.file('made.ts'), 'x\n');
    expect((await env.restore.undoChange(env.recorded[0]!.entry.id)).status).toBe('reverted');
    expect(existsSync(env.file('made.ts'))).toBe(false);
  });

  it('refuses to undo over a change someone made since, unless forced', async () => {
    const env = setup();
    writeFileSync(env.file('a.ts'), 'v1\n');
    await env.tool('call-1').writeFile(env.file('a.ts'), 'v2\n');
    writeFileSync(env.file('a.ts'), 'v2 and my own work\n');
    const id = env.recorded[0]!.entry.id;
    const refused = await env.restore.undoChange(id);
    expect(refused.status).toBe('conflict');
    expect(refused.message).toContain('a.ts: it was changed since');
    expect(readFileSync(env.file('a.ts'), 'utf8')).toBe('v2 and my own work\n');
    expect((await env.restore.undoChange(id, { force: true })).status).toBe('reverted');
    expect(readFileSync(env.file('a.ts'), 'utf8')).toBe('v1\n');
    expect(readFileSync(env.session.path, 'utf8')).toContain('"forced":true');
  });

  it('names a later change by Keel as the reason an earlier one cannot be undone alone', async () => {
    const env = setup();
    writeFileSync(env.file('a.ts'), 'v1\n');
    await env.tool('call-1').writeFile(env.file('a.ts'), 'v2\n');
    await env.tool('call-2').writeFile(env.file('a.ts'), 'v3\n');
    const outcome = await env.restore.undoChange(env.recorded[0]!.entry.id);
    expect(outcome.status).toBe('conflict');
    expect(outcome.message).toContain('Keel changed it again later');
  });

  it('restores every file changed from a tool call on, each to its content before the first change', async () => {
    const env = setup();
    writeFileSync(env.file('a.ts'), 'a1\n');
    writeFileSync(env.file('b.ts'), 'b1\n');
    await env.tool('call-1').writeFile(env.file('a.ts'), 'a2\n');
    await env.tool('call-2').writeFile(env.file('b.ts'), 'b2\n');
    await env.tool('call-3').writeFile(env.file('a.ts'), 'a3\n');
    await env.tool('call-4').writeFile(env.file('c.ts'), 'c\n');
    const outcome = await env.restore.restoreFrom(['call-2', 'call-3', 'call-4']);
    expect(outcome.status).toBe('reverted');
    expect(readFileSync(env.file('a.ts'), 'utf8')).toBe('a2\n');
    expect(readFileSync(env.file('b.ts'), 'utf8')).toBe('b1\n');
    expect(existsSync(env.file('c.ts'))).toBe(false);
    expect(env.journal.entries().map((e) => e.reverted)).toEqual([false, true, true, true]);
    expect((await env.restore.restoreFrom(['call-2'])).status).toBe('nothing');
  });

  it('keeps each version of a file once, however often it comes back', async () => {
    const env = setup();
    writeFileSync(env.file('a.ts'), 'base\n');
    await env.tool('call-1').writeFile(env.file('a.ts'), 'first try\n');
    await env.restore.undoChange(env.recorded[0]!.entry.id);
    await env.tool('call-2').writeFile(env.file('a.ts'), 'second try\n');
    const blobs = readdirSync(journalBlobDir(env.session.path));
    expect(blobs).toHaveLength(1);
  });

  it('past the size cap the change is applied but marked as not undoable, with a clear message', async () => {
    const env = setup(16);
    writeFileSync(env.file('big.ts'), 'x'.repeat(64));
    await env.tool('call-1').writeFile(env.file('big.ts'), 'small\n');
    const [recorded] = env.recorded;
    expect(readFileSync(env.file('big.ts'), 'utf8')).toBe('small\n');
    expect(recorded!.entry.undoable).toBe(false);
    expect(recorded!.warning).toMatch(/change journal for this conversation is full.*cannot be undone from the chat/s);
    const outcome = await env.restore.undoChange(recorded!.entry.id);
    expect(outcome.status).toBe('failed');
    expect(outcome.message).toContain('not kept');
  });

  it('survives reopening the session: changes and reverts are read back from the log', async () => {
    const env = setup();
    writeFileSync(env.file('a.ts'), 'v1\n');
    await env.tool('call-1').writeFile(env.file('a.ts'), 'v2\n');
    await env.tool('call-2').writeFile(env.file('a.ts'), 'v3\n');
    await env.restore.undoChange(env.recorded[1]!.entry.id);
    const id = env.session.id;
    env.session.close();
    const reopened = env.store.open(id);
    try {
      const journal = new ChangeJournal({ session: reopened, host: createFsHost(), display: (p) => p });
      expect(journal.entries().map((e) => e.reverted)).toEqual([false, true]);
      expect((await restoreOver(reopened, journal).undoChange(journal.entries()[0]!.id)).status).toBe('reverted');
      expect(readFileSync(env.file('a.ts'), 'utf8')).toBe('v1\n');
    } finally {
      reopened.close();
    }
  });

  it('deleting the session removes its journal', async () => {
    const env = setup();
    writeFileSync(env.file('a.ts'), 'v1\n');
    await env.tool('call-1').writeFile(env.file('a.ts'), 'v2\n');
    const blobs = journalBlobDir(env.session.path);
    expect(existsSync(blobs)).toBe(true);
    env.session.close();
    env.store.delete(env.session.id);
    expect(existsSync(blobs)).toBe(false);
  });
});
