import { arch, platform, release } from 'node:os';
import type { ProjectInfo } from '../workspace/projectInfo';
import type { WorkspaceFolder } from '../workspace/workspace';

export interface EnvironmentFacts {
  host: 'vscode' | 'cli';
  folders: readonly WorkspaceFolder[];
  /** The folders as projects (type, branch, which is current); listed instead of the bare folders. */
  projects?: readonly ProjectInfo[];
  /** The shell the bash tool runs commands with. */
  shell?: string;
  now: Date;
}

const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function renderEnvironment(f: EnvironmentFacts): string {
  const date = `${f.now.getFullYear()}-${pad(f.now.getMonth() + 1)}-${pad(f.now.getDate())}`;
  return [
    `Date: ${date} (${weekdays[f.now.getDay()]})`,
    `OS: ${platform()} ${release()} (${arch()})`,
    `Shell: ${f.shell ?? 'none found (the bash tool cannot run commands)'}`,
    `Running in: ${f.host === 'vscode' ? 'VS Code' : 'a terminal (keel CLI)'}`,
    f.projects ? renderProjects(f.projects) : `Workspace folders:\n${f.folders.map((d) => `- ${d.name}: ${d.path}`).join('\n')}`,
  ].join('\n');
}

/**
 * One line per project. With several, the current one is marked and the path rule is said
 * where the model reads the names it will use as prefixes.
 */
export function renderProjects(projects: readonly ProjectInfo[]): string {
  const line = (p: ProjectInfo): string => {
    const facts = [p.type ?? 'type not recognised', p.branch ? `git branch ${p.branch}` : 'not in git'];
    if (p.problem) facts.push(p.problem);
    return `- ${p.name}${projects.length > 1 && p.current ? ' (current project)' : ''}: ${p.path} — ${facts.join('; ')}`;
  };
  if (projects.length === 1) return `Workspace folder (the project):\n${line(projects[0])}`;
  const current = projects.find((p) => p.current) ?? projects[0];
  return [
    `Projects (a multi-root workspace: one folder per project):`,
    ...projects.map(line),
    `Relative tool paths start in the current project ${current.name}; to reach another project, start the path with its name ` +
      `(${projects.find((p) => !p.current)?.name ?? current.name}/src/…) or give an absolute path inside it. ls, glob and grep search the current project unless given a path.`,
  ].join('\n');
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
