import { useEffect, useState } from 'react';
import type { SessionSummary } from '../../../src/protocol/sessionState';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

type Listing = { state: 'loading' } | { state: 'loaded'; sessions: SessionSummary[]; total: number } | { state: 'failed' };

/** This workspace's past chats, newest first; choosing one reopens it. */
export function SessionsPanel() {
  const bridge = useBridge();
  const currentId = useMeta((meta) => meta.session.id);
  const [query, setQuery] = useState('');
  const [listing, setListing] = useState<Listing>({ state: 'loading' });

  useEffect(() => {
    let current = true;
    setListing({ state: 'loading' });
    void bridge.listSessions(query).then((result) => {
      if (!current) return;
      setListing(result ? { state: 'loaded', ...result } : { state: 'failed' });
    });
    return () => {
      current = false;
    };
  }, [bridge, query]);

  return (
    <section className="sessions-panel" aria-label="Past chats" data-testid="sessions-list">
      <div className="sessions-toolbar">
        <TextField value={query} onChange={setQuery} label="Search past chats" placeholder="Search past chats" autoFocus />
        <Button appearance="secondary" onClick={() => bridge.showPanel('chat')} testId="sessions-back">
          Back
        </Button>
      </div>
      {listing.state === 'loading' ? <p className="sessions-note">Loading…</p> : null}
      {listing.state === 'failed' ? <p className="sessions-note">The list could not be loaded (see the error above).</p> : null}
      {listing.state === 'loaded' && listing.sessions.length === 0 ? (
        <p className="sessions-note">{query ? 'No chat matches.' : 'No past chats in this workspace yet.'}</p>
      ) : null}
      {listing.state === 'loaded' && listing.sessions.length > 0 ? (
        <ul className="sessions-list">
          {listing.sessions.map((session) => (
            <li key={session.id}>
              <button
                type="button"
                className={`session-item${session.id === currentId ? ' session-item-current' : ''}`}
                data-testid="session-item"
                aria-current={session.id === currentId ? 'true' : undefined}
                onClick={() => void bridge.resume(session.id)}
              >
                <span className="session-title">{session.title || 'Untitled chat'}</span>
                {session.preview ? <span className="session-preview">{session.preview}</span> : null}
                <span className="session-meta">
                  {dateFormat.format(session.updatedAt)} · {session.messageCount} messages
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {listing.state === 'loaded' && listing.total > listing.sessions.length ? (
        <p className="sessions-note">
          Showing the newest {listing.sessions.length} of {listing.total}; search to find older ones.
        </p>
      ) : null}
    </section>
  );
}
