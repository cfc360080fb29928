import { describe, expect, it } from 'vitest';
import { readImageFile } from '../../../webview/components/composer/imageFiles';
import { composerKeyIntent } from '../../../webview/components/composer/keyIntent';
import type { KeyLike } from '../../../webview/components/composer/keyIntent';
import { contextChoices, sameMention } from '../../../webview/components/composer/contextMentions';
import { findMentionQuery, insertMention } from '../../../webview/components/composer/mentionQuery';
import { parseSlashCommand, slashCompletions } from '../../../webview/components/composer/slashCommands';
import { contextUsage } from '../../../webview/components/footer/contextUsage';

const key = (init: Partial<KeyLike> & { key: string }): KeyLike => ({
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...init,
});

describe('composer keys', () => {
  it('Enter sends and Shift+Enter breaks the line', () => {
    expect(composerKeyIntent(key({ key: 'Enter' }), false, false)).toBe('send');
    expect(composerKeyIntent(key({ key: 'Enter', shiftKey: true }), false, false)).toBe('newline');
    expect(composerKeyIntent(key({ key: 'a' }), false, false)).toBe('none');
  });

  it('leaves Enter to the IME while it composes', () => {
    expect(composerKeyIntent(key({ key: 'Enter', isComposing: true }), false, false)).toBe('none');
    expect(composerKeyIntent(key({ key: 'Enter', keyCode: 229 }), false, false)).toBe('none');
    expect(composerKeyIntent(key({ key: 'Enter' }), false, true)).toBe('none');
    expect(composerKeyIntent(key({ key: 'Enter' }), true, true)).toBe('none');
  });

  it('drives the completion popup while it is open', () => {
    expect(composerKeyIntent(key({ key: 'ArrowDown' }), true, false)).toBe('next');
    expect(composerKeyIntent(key({ key: 'ArrowUp' }), true, false)).toBe('previous');
    expect(composerKeyIntent(key({ key: 'Enter' }), true, false)).toBe('pick');
    expect(composerKeyIntent(key({ key: 'Tab' }), true, false)).toBe('pick');
    expect(composerKeyIntent(key({ key: 'Escape' }), true, false)).toBe('close');
    expect(composerKeyIntent(key({ key: 'ArrowDown' }), false, false)).toBe('none');
  });
});

describe('slash commands', () => {
  it('parses known commands and their argument', () => {
    expect(parseSlashCommand('/new')).toEqual({ kind: 'command', name: 'new', argument: '' });
    expect(parseSlashCommand('  /plan   add a cache\nwith tests ')).toEqual({
      kind: 'command',
      name: 'plan',
      argument: 'add a cache\nwith tests',
    });
    expect(parseSlashCommand('/Sessions')).toMatchObject({ name: 'sessions' });
  });

  it('reports an unknown command rather than sending it', () => {
    expect(parseSlashCommand('/deploy now')).toEqual({ kind: 'unknown', name: 'deploy' });
  });

  it('treats ordinary text and paths as a message', () => {
    expect(parseSlashCommand('fix /etc/hosts parsing')).toBeNull();
    expect(parseSlashCommand('/usr/bin/env is odd')).toBeNull();
    expect(parseSlashCommand('')).toBeNull();
  });

  it('completes the command word only', () => {
    expect(slashCompletions('/').map((command) => command.name)).toEqual(['new', 'plan', 'sessions', 'help', 'compact', 'worktree']);
    expect(parseSlashCommand('/worktree fix-login')).toEqual({ kind: 'command', name: 'worktree', argument: 'fix-login' });
    expect(slashCompletions('/comp').map((command) => command.name)).toEqual(['compact']);
    expect(parseSlashCommand('/compact')).toEqual({ kind: 'command', name: 'compact', argument: '' });
    expect(slashCompletions('/pl').map((command) => command.name)).toEqual(['plan']);
    expect(slashCompletions('/plan ')).toEqual([]);
    expect(slashCompletions('hello /')).toEqual([]);
  });
});

describe('@ mentions', () => {
  it('finds the query the caret is in', () => {
    expect(findMentionQuery('look at @src/ap', 15)).toEqual({ start: 8, query: 'src/ap' });
    expect(findMentionQuery('@', 1)).toEqual({ start: 0, query: '' });
    expect(findMentionQuery('look at @src/app.ts and', 23)).toBeNull();
  });

  it('ignores e-mail addresses', () => {
    expect(findMentionQuery('mail me@example.com', 19)).toBeNull();
  });

  it('replaces the query with the picked path and moves the caret after it', () => {
    const at = findMentionQuery('read @ap please', 8);
    expect(at).toEqual({ start: 5, query: 'ap' });
    const result = insertMention('read @ap please', at ?? { start: 0, query: '' }, 'src/app.ts');
    expect(result.text).toBe('read @src/app.ts please');
    expect(result.caret).toBe('read @src/app.ts '.length);
  });
});

describe('@ context entries', () => {
  it('offers the keywords a query starts, and @url', () => {
    expect(contextChoices('').map((c) => c.label)).toEqual(['@problems', '@selection', '@git', '@terminal', '@url <address>']);
    expect(contextChoices('SEL').map((c) => c.mention)).toEqual([{ kind: 'selection' }]);
    expect(contextChoices('ter').map((c) => c.mention)).toEqual([{ kind: 'terminal' }]);
    expect(contextChoices('src/a')).toEqual([]);
  });

  it('attaches an http(s) address only once it is one', () => {
    expect(contextChoices('https://')).toEqual([]);
    expect(contextChoices('https://example.com/a?b=1')[0]?.mention).toEqual({ kind: 'url', url: 'https://example.com/a?b=1' });
    expect(contextChoices('ftp://example.com/a').map((c) => c.mention)).toEqual([]);
  });

  it('leaves the @-query open after @url so the address can be typed', () => {
    const at = findMentionQuery('see @u', 6) ?? { start: 0, query: '' };
    const url = contextChoices('u').find((c) => c.mention === undefined);
    expect(insertMention('see @u', at, url?.insert ?? '', { open: true })).toEqual({ text: 'see @https://', caret: 13 });
  });

  it('tells the same mention apart from a different one', () => {
    expect(sameMention({ kind: 'git' }, { kind: 'git' })).toBe(true);
    expect(sameMention({ kind: 'file', path: 'a' }, { kind: 'folder', path: 'a' })).toBe(true);
    expect(sameMention({ kind: 'url', url: 'https://a.io' }, { kind: 'url', url: 'https://b.io' })).toBe(false);
  });
});

describe('image attachments', () => {
  it('reads an image as base64 without the data: prefix', async () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const read = await readImageFile(new File([bytes], 'shot.png', { type: 'image/png' }));
    expect(read).toEqual({ ok: true, image: { mediaType: 'image/png', data: 'iVBORw==' } });
  });

  it('refuses files that are not images the protocol carries', async () => {
    const read = await readImageFile(new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    expect(read).toEqual({ ok: false, reason: 'logo.svg is not a PNG, JPEG, GIF or WebP image' });
  });
});

describe('context meter', () => {
  it('says how full the context is', () => {
    expect(contextUsage({ inputTokens: 1, outputTokens: 1, contextTokens: 32_000, contextWindow: 128_000 })).toMatchObject({
      fraction: 0.25,
      text: '32,000 of 128,000 tokens in context (25%)',
    });
  });

  it('knows nothing until the host reports a window', () => {
    expect(contextUsage(null)).toBeNull();
    expect(contextUsage({ inputTokens: 5, outputTokens: 5 })).toBeNull();
  });
});
