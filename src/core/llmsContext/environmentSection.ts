import { arch, platform, release } from 'node:os';
import type { WorkspaceFolder } from '../workspace/workspace';

export interface EnvironmentFacts {
  host: 'vscode' | 'cli';
  folders: readonly WorkspaceFolder[];
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
    `Workspace folders:\n${f.folders.map((d) => `- ${d.name}: ${d.path}`).join('\n')}`,
  ].join('\n');
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
