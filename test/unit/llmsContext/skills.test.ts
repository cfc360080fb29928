import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileTextCache } from '../../../src/core/llmsContext/fileTextCache';
import { discoverSkills } from '../../../src/core/setup/skillFiles';
import { loadSkill } from '../../../src/core/setup/skillBody';
import { createSkillTool } from '../../../src/core/tools/skillTool';
import { presentCall } from '../../../src/core/tools/toolPresentation';
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

function homes() {
  const keel = join(t.root, '..', 'keel-home');
  const user = join(t.root, '..', 'user-home');
  const skill = (base: string, name: string, front: string) => {
    mkdirSync(join(base, name), { recursive: true });
    writeFileSync(join(base, name, 'SKILL.md'), `---\n${front}\n---\nBody of ${name}.`);
  };
  skill(join(keel, 'skills'), 'mine', 'name: mine\ndescription: My own skill.');
  skill(join(user, '.claude', 'skills'), 'from-claude', 'name: from-claude\ndescription: A skill from Claude Code.');
  // Same name as a workspace skill: the workspace's comes first and wins.
  skill(join(user, '.claude', 'skills'), 'release-notes', 'name: release-notes\ndescription: The home copy.');
  skill(join(user, '.claude', 'skills'), 'no-description', 'name: no-description');
  return { keel, user };
}

describe('skills discovery', () => {
  it('finds the workspace\'s skills (.keel, .claude, .github) then the person\'s, names and descriptions only', async () => {
    t = tempTree('keel-skills-');
    cpSync(fixture, t.root, { recursive: true });
    const workspace = await Workspace.create([{ path: t.root }]);
    const skills = await discoverSkills(workspace, homes(), new FileTextCache());
    expect(skills.map((s) => [s.name, s.display])).toEqual([
      ['db-migrate', '.keel/skills/db-migrate'],
      ['release-notes', '.claude/skills/release-notes'],
      ['api-review', '.github/skills/api-review'],
      ['mine', '~keel/skills/mine'],
      ['from-claude', '~/.claude/skills/from-claude'],
    ]);
    expect(skills[1].description).toBe('Write release notes from the git log since the last tag. Use when asked for a changelog or release notes.');
  });

  it('loads a skill\'s body without its front matter and lists the files it ships', async () => {
    t = tempTree('keel-skills-');
    cpSync(fixture, t.root, { recursive: true });
    const workspace = await Workspace.create([{ path: t.root }]);
    const [, notes] = await discoverSkills(workspace, {}, new FileTextCache());
    const loaded = await loadSkill(notes);
    expect(loaded.files).toEqual(['scripts/since-tag.sh']);
    expect(loaded.text).toContain('Marker: SKILL-RELEASE-NOTES');
    expect(loaded.text).not.toContain('description:');
    expect(loaded.text).toContain(`Paths in the skill are relative to ${notes.dir}.`);
  });

  it('the skill tool says which skills exist when asked for one that does not', async () => {
    const tool = createSkillTool(async () => [{ name: 'a', description: 'd', dir: '/nowhere', display: 'a' }]);
    const result = await tool.execute({ name: 'b' }, {} as never);
    expect(result).toMatchObject({ isError: true, output: 'No skill is named "b". Skills: a.' });
    expect(presentCall(tool, 'skill', { name: 'a' })).toMatchObject({ title: 'skill', summary: 'a', icon: 'book' });
  });
});

describe('skills in a conversation (scripted model)', () => {
  let server: ScriptedServer;
  let bench: ProjectBench;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());
  afterEach(() => bench?.cleanup());

  it('lists names and descriptions in the first request and loads the body only when the model uses the skill', async () => {
    bench = projectBench(server);
    bench.write('.claude/skills/release-notes/SKILL.md', '---\nname: release-notes\ndescription: Write release notes.\n---\nGroup commits under Added and Fixed. BODY-MARKER');
    bench.write('.claude/skills/release-notes/scripts/since-tag.sh', 'git log\n');
    const { project } = await bench.project([
      reply.tool('skill', { name: 'release-notes' }),
      { ...reply.text('done'), match: { lastToolResultIncludes: 'BODY-MARKER' } },
    ]);
    const r = recorder();
    expect((await project.send('write the release notes', r)).status).toBe('completed');
    const first = JSON.stringify(server.requests[0].body);
    expect(first).toContain('- release-notes: Write release notes.');
    expect(first).not.toContain('BODY-MARKER');
    expect((server.requests[0].body.tools as { function: { name: string } }[]).map((x) => x.function.name)).toContain('skill');
    expect(JSON.stringify(server.requests[1].body)).toContain('scripts/since-tag.sh');
  });

  it('/skill-name from the person attaches that skill to the message; another slash word is left alone', async () => {
    bench = projectBench(server);
    bench.write('.keel/skills/db-migrate/SKILL.md', '---\nname: db-migrate\ndescription: New migration.\n---\nCopy template.sql. MIGRATE-BODY');
    const { project } = await bench.project([reply.text('ok'), reply.text('ok again')]);
    await project.send('/db-migrate add a users table', recorder());
    const first = JSON.stringify(server.requests[0].body);
    expect(first).toContain('/db-migrate add a users table');
    expect(first).toContain('MIGRATE-BODY');
    await project.send('/usr/bin is odd', recorder());
    expect(JSON.stringify(server.requests[1].body.messages.at(-1))).not.toContain('MIGRATE-BODY');
  });

  it('offers no skill tool where there are no skills', async () => {
    bench = projectBench(server);
    const { project } = await bench.project([reply.text('hi')]);
    await project.send('hello', recorder());
    expect((server.requests[0].body.tools as { function: { name: string } }[]).map((x) => x.function.name)).not.toContain('skill');
    expect(JSON.stringify(server.requests[0].body)).not.toContain('<skills>');
  });
});
