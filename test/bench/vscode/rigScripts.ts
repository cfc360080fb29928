// The rig's scripts (scripts/*.mjs), loaded at run time from the repository rather than
// bundled into the bench: they locate the repo, code-server's cache and Node 22 from their
// own file paths. Only what the benches use is typed here.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LaunchedChromium } from '../../../scripts/lib/chromium.mjs';

export interface LaunchedServer {
  url: string;
  pid: number;
  runDir: string;
  logFile: string;
  stop(options?: { removeRunDir?: boolean }): Promise<void>;
}

export interface LaunchOptions {
  kind: 'code-server';
  runDir: string;
  folder: string;
  vsix: string[];
  env: Record<string, string>;
  /** User settings of the server's profile. */
  settings?: Record<string, unknown>;
  /** Extension folders installed as they are (linked into the extensions folder). */
  linkExtensions?: string[];
}

interface LaunchModule {
  launchServer(options: LaunchOptions): Promise<LaunchedServer>;
  copyWorkspace(source: string, runDir: string): string;
  makeRunDir(label: string): string;
}

interface PackageModule {
  buildExtension(dir: string, options: { production: boolean }): Promise<void>;
  packageVsix(dir: string, options: { out: string }): Promise<string>;
}

interface ChromiumModule {
  launchChromium(options?: { viewport?: { width: number; height: number } }): Promise<LaunchedChromium>;
}

interface StepsModule {
  killGroup(pid: number, signal: NodeJS.Signals): boolean;
}

/** The benches run from the repository root (npm run bench). */
export const repoRoot = process.cwd();

async function load<T>(relative: string): Promise<T> {
  const module: T = await import(pathToFileURL(join(repoRoot, relative)).href);
  return module;
}

export const rig = {
  launch: () => load<LaunchModule>('scripts/codeServer/launch.mjs'),
  packaging: () => load<PackageModule>('scripts/packageVsix.mjs'),
  chromium: () => load<ChromiumModule>('scripts/lib/chromium.mjs'),
  steps: () => load<StepsModule>('scripts/lib/steps.mjs'),
};
