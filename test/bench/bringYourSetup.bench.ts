import { cp, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileTextCache } from '../../src/core/llmsContext/fileTextCache';
import { baseRules, nestedRules } from '../../src/core/llmsContext/rulesFiles';
import { applyScopedRules, scopedRules } from '../../src/core/llmsContext/scopedRules';
import { discoverCommandFiles } from '../../src/core/setup/commandFiles';
import { discoverSkills } from '../../src/core/setup/skillFiles';
import { discoverAgents } from '../../src/core/setup/agentFiles';
import { Workspace } from '../../src/core/workspace/workspace';
import type { Bench, BenchSuite } from './benchTypes';
import { writeFiftyThousandFiles } from './fiftyThousandFiles';

interface Repo {
  base: string;
  root: string;
  home: string;
  workspace: Workspace;
  cache?: FileTextCache;
}

/** Benches run from the repository root (npm run bench). */
const fixture = join(process.cwd(), 'test', 'fixtures', 'workspaces', 'bringYourSetup');

/**
 * 50,000 files (50 packages × 20 folders × 50 files, as in llmsContext.bench.ts) with the
 * bring-your-setup fixture's rule, skill, command, agent and hook folders at the root, plus
 * 40 more Cursor rules and 40 Copilot instruction files so the scoped set is not trivial.
 */
async function makeRepo(): Promise<Repo> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'keel-bench-setup-')));
  const root = join(base, 'repo');
  const home = join(base, 'home');
  await mkdir(home, { recursive: true });
  await writeFiftyThousandFiles(root);
  await cp(fixture, root, { recursive: true });
  for (let i = 0; i < 40; i++) {
    await writeFile(join(root, '.cursor', 'rules', `pkg${i}.mdc`), `---\nglobs: packages/pkg${i}/**/*.ts\n---\nRules for package ${i}.\n`);
    await writeFile(join(root, '.github', 'instructions', `pkg${i}.instructions.md`), `---\napplyTo: "packages/pkg${i}/**"\n---\nInstructions for package ${i}.\n`);
  }
  return { base, root, home, workspace: await Workspace.create([{ path: root }]) };
}

/** What a request needs: base, nested and scoped rules for a file the conversation touched, the skills, the command files and the agents. */
async function discover(repo: Repo, cache: FileTextCache): Promise<void> {
  const file = join(repo.root, 'packages', 'pkg7', 'mod3', 'file9.ts');
  const [base, nested, scoped, skills, commands, agents] = await Promise.all([
    baseRules(repo.workspace, repo.home, cache),
    nestedRules(repo.workspace, [join(repo.root, 'packages', 'pkg7', 'mod3')], cache),
    scopedRules(repo.workspace, cache),
    discoverSkills(repo.workspace, { keel: repo.home }, cache),
    discoverCommandFiles(repo.workspace, { keel: repo.home }, cache),
    discoverAgents(repo.workspace, { keel: repo.home }, cache),
  ]);
  const applied = applyScopedRules(scoped, [file], repo.workspace);
  if (base.length < 2 || nested.length !== 0 || skills.length !== 3 || commands.length !== 3 || agents.length !== 3 || !applied.some((a) => a.rule.display === '.cursor/rules/pkg7.mdc')) {
    throw new Error(`discovery missed rules: ${applied.map((a) => a.rule.display).join(', ')}`);
  }
}

const teardown = async (repo: Repo) => rm(repo.base, { recursive: true, force: true });

const cold: Bench<Repo> = {
  name: 'discover instructions (AGENTS/CLAUDE, nested, .claude/.github/.cursor/.cline/.windsurf rules), skills, command files and agents on 50,000 files, cold',
  target: '< 150 ms',
  limit: 150,
  runs: 9,
  setup: makeRepo,
  async run(repo) {
    await discover(repo, new FileTextCache());
  },
  teardown,
};

const cached: Bench<Repo> = {
  name: 'discover instructions, skills, command files and agents on 50,000 files, cached (revalidated by stamps)',
  target: '< 5 ms',
  limit: 5,
  runs: 21,
  async setup() {
    const repo = await makeRepo();
    repo.cache = new FileTextCache();
    await discover(repo, repo.cache);
    return repo;
  },
  async run(repo) {
    await discover(repo, repo.cache!);
  },
  teardown,
};

export const suite: BenchSuite = { name: 'bring your setup', benches: [cold, cached] };
