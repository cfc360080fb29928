import { describe, expect, it } from 'vitest';
import { hostEvents } from '../../../src/protocol/hostEvents';
import { snapshotSchema } from '../../../src/protocol/sessionState';

const baseSnapshot = {
  session: { id: null, title: null },
  messages: [],
  state: { running: false, mode: 'act', approvalMode: 'manual', model: null, queued: 0 },
  usage: null,
  pendingApprovals: [],
  todos: [],
  config: { modelConfigured: true, workspaceTrusted: true, problem: null },
};

describe('context events', () => {
  it('accepts snapshots without rules (older hosts) and with them', () => {
    expect(snapshotSchema.safeParse(baseSnapshot).success).toBe(true);
    expect(snapshotSchema.safeParse({ ...baseSnapshot, rules: [{ display: '~keel/AGENTS.md', scope: 'global', status: 'included' }] }).success).toBe(true);
  });

  it('refuses a rule without a name or with an unknown status, and a trimming note with a negative count', () => {
    expect(hostEvents.rules.safeParse({ rules: [{ display: '', scope: 'workspace', status: 'included' }] }).success).toBe(false);
    expect(hostEvents.rules.safeParse({ rules: [{ display: 'AGENTS.md', scope: 'workspace', status: 'skipped' }] }).success).toBe(false);
    expect(hostEvents.contextTrimmed.safeParse({ attempt: 1, maxAttempts: 3, droppedMessages: -1, shortenedResults: 0 }).success).toBe(false);
  });
});
