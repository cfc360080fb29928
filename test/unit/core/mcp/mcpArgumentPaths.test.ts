import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protectedArgumentPaths } from '../../../../src/core/mcp/mcpArgumentPaths';
import { Workspace } from '../../../../src/core/workspace/workspace';

describe('protected paths in MCP tool arguments', () => {
  let dir: string;
  let workspace: Workspace;
  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'keel-mcp-args-')));
    mkdirSync(join(dir, '.vscode'));
    symlinkSync(join(dir, '.vscode'), join(dir, 'innocent'));
    workspace = await Workspace.create([{ path: dir }]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds them relative, absolute, as file URIs, nested in objects and through symlinks', async () => {
    const found = await protectedArgumentPaths(
      { a: '.vscode/settings.json', b: { c: [join(dir, 'AGENTS.md')] }, d: pathToFileURL(join(dir, '.git', 'hooks', 'pre-push')).href, e: 'innocent/tasks.json' },
      workspace,
    );
    expect(found.sort()).toEqual(
      [join(dir, '.vscode', 'settings.json'), join(dir, 'AGENTS.md'), join(dir, '.git', 'hooks', 'pre-push'), join(dir, '.vscode', 'tasks.json')].sort(),
    );
  });

  it('ignores ordinary paths and long or multi-line text', async () => {
    expect(await protectedArgumentPaths({ path: 'src/app.ts', content: '{"keel.approvalMode": "yolo"}\n.vscode/settings.json', n: 3 }, workspace)).toEqual([]);
  });
});
