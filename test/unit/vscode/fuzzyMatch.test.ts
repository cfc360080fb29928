import { describe, expect, it } from 'vitest';
import { fuzzyScore, rankPaths, withFolders } from '../../../src/vscode/workspace/fuzzyMatch';

describe('fuzzy file ranking', () => {
  const files = ['src/chat/chatController.ts', 'src/core/project.ts', 'test/unit/chat/chatController.test.ts', 'README.md', 'src/protocol/readyGate.ts'];

  it('prefers name matches, then word starts, and rejects non-matches', () => {
    expect(rankPaths('chatcon', withFolders(files), 3).map((c) => c.path)).toEqual([
      'src/chat/chatController.ts',
      'test/unit/chat/chatController.test.ts',
    ]);
    expect(rankPaths('rg', withFolders(files), 1)[0]!.path).toBe('src/protocol/readyGate.ts');
    expect(fuzzyScore('zzz', 'src/a.ts')).toBeUndefined();
  });

  it('lists folders once and shorter paths first for an empty query', () => {
    const candidates = withFolders(['a/b/c.ts', 'a/b/d.ts']);
    expect(candidates.filter((c) => c.kind === 'folder').map((c) => c.path)).toEqual(['a', 'a/b']);
    expect(rankPaths('', candidates, 2).map((c) => c.path)).toEqual(['a', 'a/b']);
  });
});
