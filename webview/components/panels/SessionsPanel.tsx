import * as l10n from '@vscode/l10n';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { UIEvent } from 'react';
import type { SessionSummary } from '../../../src/protocol/sessionState';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';
import { IconButton } from '../../ui/IconButton';
import { TextField } from '../../ui/TextField';
import { SessionActivity } from './SessionActivity';

// In the page's language (VS Code's display language), not the browser's: a Chinese view shows Chinese dates.
const dateFormat = pageDateFormat();
const SEARCH_DELAY_MS = 150;
/** Load the next page when the list is scrolled this close to its end. */
const MORE_MARGIN_PX = 200;

type Listing =
  | { state: 'loading' }
  | { state: 'loaded'; sessions: SessionSummary[]; total: number; loadingMore: boolean }
  | { state: 'failed' };

/** This workspace's past chats, newest first, searched by title and message text; more load on scroll. */
export function SessionsPanel() {
  const bridge = useBridge();
  const currentId = useMeta((meta) => meta.session.id);
  // Live from the host once it said; until then, what the list was loaded with.
  const live = useMeta((meta) => meta.sessionActivity);
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [listing, setListing] = useState<Listing>({ state: 'loading' });
  const [reloads, setReloads] = useState(0);
  const generation = useRef(0);

  useEffect(() => {
    const timer = setTimeout(() => setQuery(typed.trim()), typed.trim() === '' ? 0 : SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  useEffect(() => {
    const mine = ++generation.current;
    setListing({ state: 'loading' });
    void bridge.listSessions(query).then((result) => {
      if (mine !== generation.current) return;
      setListing(result ? { state: 'loaded', ...result, loadingMore: false } : { state: 'failed' });
    });
  }, [bridge, query, reloads]);

  const loadMore = useCallback(() => {
    setListing((now) => {
      if (now.state !== 'loaded' || now.loadingMore || now.sessions.length >= now.total) return now;
      const mine = generation.current;
      void bridge.listSessions(query, now.sessions.length).then((result) => {
        if (mine !== generation.current) return;
        setListing((later) => {
          if (later.state !== 'loaded') return later;
          if (!result) return { ...later, loadingMore: false };
          const known = new Set(later.sessions.map((s) => s.id));
          return { state: 'loaded', sessions: [...later.sessions, ...result.sessions.filter((s) => !known.has(s.id))], total: result.total, loadingMore: false };
        });
      });
      return { ...now, loadingMore: true };
    });
  }, [bridge, query]);

  const onScroll = (event: UIEvent<HTMLUListElement>): void => {
    const list = event.currentTarget;
    if (list.scrollHeight - list.scrollTop - list.clientHeight < MORE_MARGIN_PX) loadMore();
  };

  const replace = (id: string, patch: Partial<SessionSummary>): void =>
    setListing((now) => (now.state === 'loaded' ? { ...now, sessions: now.sessions.map((s) => (s.id === id ? { ...s, ...patch } : s)) } : now));

  return (
    <section className="sessions-panel" aria-label={l10n.t('Past chats')} data-testid="sessions-list">
      <div className="sessions-toolbar">
        <TextField value={typed} onChange={setTyped} label={l10n.t('Search past chats')} placeholder={l10n.t('Search titles and messages')} autoFocus testId="sessions-search" />
        <Button appearance="secondary" onClick={() => bridge.showPanel('chat')} testId="sessions-back">
          {l10n.t('Back')}
        </Button>
      </div>
      {listing.state === 'loading' ? <p className="sessions-note">{l10n.t('Loading…')}</p> : null}
      {listing.state === 'failed' ? <p className="sessions-note">{l10n.t('The list could not be loaded (see the error above).')}</p> : null}
      {listing.state === 'loaded' && listing.sessions.length === 0 ? (
        <p className="sessions-note">{query ? l10n.t('No chat matches.') : l10n.t('No past chats in this workspace yet.')}</p>
      ) : null}
      {listing.state === 'loaded' && listing.sessions.length > 0 ? (
        <ul className="sessions-list" onScroll={onScroll} data-testid="sessions-rows" data-total={listing.total}>
          {listing.sessions.map((session) => (
            <SessionRow
              key={session.id}
              session={live ? { ...session, activity: live[session.id] } : session}
              current={session.id === currentId}
              onRenamed={(title) => replace(session.id, { title })}
              onDeleted={() => setReloads((n) => n + 1)}
            />
          ))}
          {listing.sessions.length < listing.total ? (
            <li className="sessions-note">
              <Button appearance="secondary" onClick={loadMore} testId="sessions-more">
                {listing.loadingMore ? l10n.t('Loading…') : l10n.t('Show older ({0})', listing.total - listing.sessions.length)}
              </Button>
            </li>
          ) : null}
        </ul>
      ) : null}
    </section>
  );
}

function SessionRow({ session, current, onRenamed, onDeleted }: { session: SessionSummary; current: boolean; onRenamed: (title: string) => void; onDeleted: () => void }) {
  const bridge = useBridge();
  const [renaming, setRenaming] = useState<string | undefined>(undefined);

  const saveTitle = async (): Promise<void> => {
    if (renaming === undefined) return;
    const title = (await bridge.call('sessions.rename', { id: session.id, title: renaming }))?.title;
    setRenaming(undefined);
    if (title !== undefined) onRenamed(title);
  };

  return (
    <li className="session-row" data-testid="session-row" data-session-id={session.id}>
      {renaming !== undefined ? (
        <div className="session-rename">
          <TextField value={renaming} onChange={setRenaming} label={l10n.t('New title')} autoFocus testId="session-rename-input" onEnter={() => void saveTitle()} />
          <Button onClick={() => void saveTitle()} testId="session-rename-save">
            {l10n.t('Save')}
          </Button>
          <Button appearance="secondary" onClick={() => setRenaming(undefined)}>
            {l10n.t('Cancel')}
          </Button>
        </div>
      ) : (
        <button
          type="button"
          className={`session-item${current ? ' session-item-current' : ''}`}
          data-testid="session-item"
          aria-current={current ? 'true' : undefined}
          onClick={() => void bridge.resume(session.id)}
        >
          <span className="session-title">{session.title || l10n.t('Untitled chat')}</span>
          {session.activity ? <SessionActivity activity={session.activity} /> : null}
          {session.preview ? <span className="session-preview">{session.preview}</span> : null}
          <span className="session-meta">
            <span>{dateFormat.format(session.updatedAt)}</span>
            {' · '}
            <span>{session.messageCount === 1 ? l10n.t('1 message') : l10n.t('{0} messages', session.messageCount)}</span>
            {session.tokens ? (
              <>
                {' · '}
                <span>{l10n.t('{0} tokens', session.tokens.toLocaleString())}</span>
              </>
            ) : null}
            {session.branch ? (
              <>
                {' · '}
                <span className="session-branch" data-testid="session-branch" title={l10n.t('Works in a git worktree on the branch {0}', session.branch)}>
                  <Icon name="git-branch" /> {session.branch}
                </span>
              </>
            ) : null}
          </span>
        </button>
      )}
      <span className="session-actions">
        <IconButton icon="edit" label={l10n.t('Rename')} testId="session-rename" onClick={() => setRenaming(session.title)} />
        <IconButton icon="markdown" label={l10n.t('Export to Markdown')} testId="session-export-md" onClick={() => void bridge.call('sessions.export', { id: session.id, format: 'markdown' })} />
        <IconButton icon="json" label={l10n.t('Export to JSON')} testId="session-export-json" onClick={() => void bridge.call('sessions.export', { id: session.id, format: 'json' })} />
        <IconButton
          icon="trash"
          label={l10n.t('Delete')}
          testId="session-delete"
          onClick={() => void bridge.call('sessions.delete', { id: session.id }).then((result) => result?.deleted === true && onDeleted())}
        />
      </span>
    </li>
  );
}

function pageDateFormat(): Intl.DateTimeFormat {
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
  try {
    return new Intl.DateTimeFormat(document.documentElement.lang || undefined, options);
  } catch {
    return new Intl.DateTimeFormat(undefined, options);
  }
}
