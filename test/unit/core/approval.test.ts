import { describe, expect, it } from 'vitest';
import { decideApproval } from '../../../src/core/approval';
import type { ApprovalFacts } from '../../../src/core/approval';

const base: ApprovalFacts = { mode: 'manual', category: 'write', touchesProtected: false, allowedForSession: false };
const decide = (f: Partial<ApprovalFacts>) => decideApproval({ ...base, ...f }).decision;

describe('approval order', () => {
  it('autoEdit runs a sandboxed command without asking; manual still asks unless a rule allows it', () => {
    expect(decide({ mode: 'autoEdit', category: 'command', sandboxed: true })).toBe('allow');
    expect(decide({ mode: 'manual', category: 'command', sandboxed: true })).toBe('ask');
    expect(decide({ mode: 'manual', category: 'command', sandboxed: true, toolNeedsApproval: false })).toBe('allow');
    expect(decide({ mode: 'autoEdit', category: 'command', sandboxed: true, insist: 'the command asks for network access' })).toBe('ask');
  });

  it('an allow rule does not cover the files a command writes in manual mode; autoEdit and yolo allow them as writes', () => {
    expect(decide({ mode: 'manual', category: 'command', toolNeedsApproval: false, writesFiles: true })).toBe('ask');
    expect(decide({ mode: 'autoEdit', category: 'command', toolNeedsApproval: false, writesFiles: true })).toBe('allow');
    expect(decide({ mode: 'yolo', category: 'command', toolNeedsApproval: false, writesFiles: true })).toBe('allow');
  });

  it('an allow rule allows reading: only in manual mode does a rule-allowed command get a read-only workspace', () => {
    expect(decideApproval({ ...base, mode: 'manual', category: 'command', toolNeedsApproval: false })).toEqual({
      decision: 'allow',
      rule: 'tool says no approval needed',
      readOnlyWorkspace: true,
    });
    for (const mode of ['autoEdit', 'yolo'] as const) {
      expect(decideApproval({ ...base, mode, category: 'command', toolNeedsApproval: false, sandboxed: true })).not.toHaveProperty('readOnlyWorkspace');
    }
    expect(decideApproval({ ...base, category: 'command', why: 'the command asks for write access to the workspace' })).toEqual({
      decision: 'ask',
      rule: 'the command asks for write access to the workspace',
    });
  });

  it('a command outside the sandbox asks in every mode, whatever allows it otherwise', () => {
    for (const mode of ['manual', 'autoEdit', 'yolo'] as const) {
      expect(decide({ mode, category: 'command', toolNeedsApproval: false, allowedForSession: true, alwaysAsk: 'outside the sandbox' })).toBe('ask');
    }
  });

  it('asks for writes and commands in manual mode', () => {
    expect(decide({ category: 'write' })).toBe('ask');
    expect(decide({ category: 'command' })).toBe('ask');
    expect(decide({ category: 'network' })).toBe('ask');
  });

  it('never asks for read tools', () => {
    expect(decide({ category: 'read' })).toBe('allow');
    expect(decide({ category: 'read', touchesProtected: true })).toBe('allow');
  });

  it('yolo allows everything except protected paths', () => {
    expect(decide({ mode: 'yolo', category: 'command' })).toBe('allow');
    expect(decide({ mode: 'yolo', category: 'write', touchesProtected: true })).toBe('ask');
  });

  it('autoEdit allows writes but not commands or network', () => {
    expect(decide({ mode: 'autoEdit', category: 'write' })).toBe('allow');
    expect(decide({ mode: 'autoEdit', category: 'command' })).toBe('ask');
    expect(decide({ mode: 'autoEdit', category: 'network' })).toBe('ask');
  });

  it("lets a tool's own verdict skip approval, but not for protected paths", () => {
    expect(decide({ category: 'command', toolNeedsApproval: false })).toBe('allow');
    expect(decide({ category: 'command', toolNeedsApproval: true })).toBe('ask');
    expect(decide({ category: 'write', toolNeedsApproval: false, touchesProtected: true })).toBe('ask');
  });

  it('a session allowance applies, except to protected paths', () => {
    expect(decide({ category: 'command', allowedForSession: true })).toBe('allow');
    expect(decide({ category: 'write', allowedForSession: true, touchesProtected: true })).toBe('ask');
  });

  it("a tool's insistence (deny rule, write outside the workspace) asks in every mode but yolo, whatever allows it", () => {
    const insist = 'matches the deny rule "rm"';
    for (const mode of ['manual', 'autoEdit'] as const) {
      expect(decideApproval({ ...base, mode, category: 'command', insist, toolNeedsApproval: false, allowedForSession: true })).toEqual({ decision: 'ask', rule: insist });
    }
    expect(decide({ mode: 'yolo', category: 'command', insist })).toBe('allow');
    expect(decideApproval({ ...base, category: 'command', insist, touchesProtected: true }).rule).toBe('protected path');
  });

  it('protected paths ask in every mode, including autoEdit creates', () => {
    for (const mode of ['manual', 'autoEdit', 'yolo'] as const) {
      expect(decideApproval({ ...base, mode, touchesProtected: true }).rule).toBe('protected path');
    }
  });
});
