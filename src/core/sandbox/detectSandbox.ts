import { findBwrap, probeBwrap } from './bubblewrap';
import { probeSeatbelt } from './seatbelt';
import type { SandboxDetection } from './sandboxTypes';

export interface DetectOptions {
  platform?: NodeJS.Platform;
  /** The PATH bwrap is looked up on. */
  path?: string;
}

const cache = new Map<string, Promise<SandboxDetection>>();

/** The OS sandbox available here, probed once per platform and PATH. */
export function detectSandbox(opts: DetectOptions = {}): Promise<SandboxDetection> {
  const platform = opts.platform ?? process.platform;
  const path = opts.path ?? process.env.PATH ?? '';
  const key = `${platform}\0${path}`;
  let found = cache.get(key);
  if (!found) {
    found = detect(platform, path);
    cache.set(key, found);
  }
  return found;
}

async function detect(platform: NodeJS.Platform, path: string): Promise<SandboxDetection> {
  if (platform === 'linux') {
    const bwrap = await findBwrap(path);
    if (!bwrap) return { available: false, reason: 'bubblewrap (bwrap) is not installed or not on PATH; install the "bubblewrap" package' };
    return probeBwrap(bwrap);
  }
  if (platform === 'darwin') return probeSeatbelt();
  return { available: false, reason: `Keel has no OS sandbox for ${platform}` };
}
