import { describe, expect, it } from 'vitest';
import { heldParents } from '../../../src/core/sandbox/heldParents';
import { protectedBinds } from '../../../src/core/sandbox/protectedBinds';
import type { SandboxLayout } from '../../../src/core/sandbox/sandboxTypes';

describe('the folders held around protected paths', () => {
  it('are every folder between the workspace and a protected path, shallowest first', () => {
    const held = heldParents(['/ws'], ['/ws/.git/config', '/ws/a/b/.vscode', '/ws/a/AGENTS.md', '/ws/.github/instructions']);
    expect(held).toEqual(['/ws/.git', '/ws/.github', '/ws/a', '/ws/a/b']);
  });

  it('leave out the workspace itself, paths outside it and folders inside a read-only path', () => {
    expect(heldParents(['/ws'], ['/ws/AGENTS.md', '/elsewhere/x/.vscode', '/ws/.keel/rules/x.md', '/ws/.keel'])).toEqual([]);
  });

  it('are bound before the read-only paths inside them, so no bind covers another', () => {
    const layout = {
      writable: ['/ws'],
      readOnly: ['/ws/a/b/.vscode', '/ws/.git/config'],
      missing: [{ path: '/ws/.git/hooks', kind: 'dir' }],
      heldParents: ['/ws/.git', '/ws/a', '/ws/a/b'],
    } as Pick<SandboxLayout, 'writable' | 'readOnly' | 'missing' | 'heldParents'> as SandboxLayout;
    const args = protectedBinds(layout).join(' ');
    const at = (s: string): number => args.indexOf(s);
    expect(at('--bind /ws/.git /ws/.git')).toBeGreaterThanOrEqual(0);
    expect(at('--bind /ws/.git /ws/.git')).toBeLessThan(at('--ro-bind /ws/.git/config'));
    expect(at('--bind /ws/.git /ws/.git')).toBeLessThan(at('--ro-bind /ws/.git/hooks'));
    expect(at('--bind /ws/a /ws/a')).toBeLessThan(at('--bind /ws/a/b /ws/a/b'));
    expect(at('--bind /ws/a/b /ws/a/b')).toBeLessThan(at('--ro-bind /ws/a/b/.vscode'));
  });
});
