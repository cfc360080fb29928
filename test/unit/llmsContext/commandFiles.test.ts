import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileTextCache } from '../../../src/core/llmsContext/fileTextCache';
import { discoverCommandFiles, expandCommand, narrowTools } from '../../../src/core/setup/commandFiles';
import { Workspace } from '../../../src/core/workspace/workspace';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { tempTree } from './contextFixture';
import type { TempTree } from './contextFixture';
import { projectBench, recorder } from './projectHarness';
import type { ProjectBench } from './projectHarness';

const fixture = join(__dirname, '../../fixtures/workspaces/bringYourSetup');

let t: TempTree;
afterEach(() => t?.cleanup());

describe('command files', () => {
  it('finds .keel/commands, .claude/commands (subfolders as folder:name) and .github/prompts', async () => {
    t = tempTree('keel-cmd-');
    cpSync(fixture, t.root, { recursive: true });
    t.write('.claude/commands/frontend/component.md', 'Make a component named $1.');
    const workspace = await Workspace.create([{ path: t.root }]);
    const files = await discoverCommandFiles(workspace, {}, new FileTextCache());
    expect(files.map((f) => [f.name, f.display, f.tools])).toEqual([
      ['review', '.keel/commands/review.md', []],
      ['fix-issue', '.claude/commands/fix-issue.md', ['Read', 'Grep', 'Bash(git:*)']],
      ['frontend:component', '.claude/commands/frontend/component.md', []],
      ['explain', '.github/prompts/explain.prompt.md', ['search', 'codebase']],
    ]);
    expect(files[1].description).toBe('Fix a GitHub issue by number');
    expect(files[1].body).not.toContain('allowed-tools');
  });

  it('fills $ARGUMENTS, $1…, ${input:…}, and appends arguments a prompt does not place', () => {
    expect(expandCommand('Fix issue #$1 with priority $2. All: $ARGUMENTS.', '123 "very high"')).toBe('Fix issue #123 with priority very high. All: 123 "very high".');
    expect(expandCommand('Explain ${input:symbol:Which symbol?} now.', 'parseArgs')).toBe('Explain parseArgs now.');
    expect(expandCommand('Explain ${input:symbol:Which symbol?} now.', '')).toBe('Explain <symbol> now.');
    expect(expandCommand('Review the diff.', 'focus on tests')).toBe('Review the diff.\n\nfocus on tests');
  });

  it('allowed tools only narrow what is offered, in Keel\'s names', () => {
    const offered = ['read', 'ls', 'glob', 'grep', 'edit', 'write', 'bash', 'fetch'];
    expect(narrowTools(offered, ['Read', 'Grep', 'Bash(git:*)'])).toEqual(['read', 'grep', 'bash']);
    expect(narrowTools(['read', 'grep'], ['Read', 'Write'])).toEqual(['read']);
    expect(narrowTools(offered, [])).toEqual(offered);
    expect(narrowTools(offered, ['SomethingElse'])).toEqual(offered);
  });
});

describe('a command file run as /name (scripted model)', () => {
  let server: ScriptedServer;
  let bench: ProjectBench;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());
  afterEach(() => bench?.cleanup());

  it('expands the prompt with the arguments and offers only the tools the file allows', async () => {
    bench = projectBench(server);
    bench.write('.claude/commands/fix-issue.md', '---\ndescription: Fix an issue\nallowed-tools: Read, Grep\n---\nFix issue #$1 with priority $2.');
    const { project } = await bench.project([reply.text('fixing'), reply.text('next')]);
    await project.send('/fix-issue 123 high', recorder());
    const body = server.requests[0].body as { tools: { function: { name: string } }[] };
    expect(JSON.stringify(body)).toContain('Fix issue #123 with priority high.');
    expect(body.tools.map((x) => x.function.name).sort()).toEqual(['grep', 'read']);
    // The next message is an ordinary one again: every tool.
    await project.send('thanks', recorder());
    expect((server.requests[1].body as typeof body).tools.length).toBeGreaterThan(2);
  });
});
