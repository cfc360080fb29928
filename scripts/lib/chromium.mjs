// Debian's Chromium driven by playwright-core (Playwright's own browser download cannot
// reach its host here). Shared by the runners and the e2e harness so the flags live once.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export function chromiumPath() {
  const path = process.env.KEEL_CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(`Chromium not found at ${path}: install it with "apt-get install -y chromium" (or set KEEL_CHROMIUM)`);
  }
  return path;
}

// Without the networking flags Chromium keeps trying hosts that are unreachable here.
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

// A persistent context in a fresh empty profile folder (launch() refuses --user-data-dir);
// close() also removes the profile.
export async function launchChromium({ headless = process.env.KEEL_HEADED !== '1', viewport = { width: 1400, height: 900 } } = {}) {
  const profileDir = mkdtempSync(join(tmpdir(), 'keel-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: chromiumPath(),
      headless,
      args: chromiumArgs,
      viewport,
      timeout: 60_000,
    });
  } catch (error) {
    rmSync(profileDir, { recursive: true, force: true });
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    profileDir,
    async close() {
      try {
        await context.close();
      } finally {
        rmSync(profileDir, { recursive: true, force: true });
      }
    },
  };
}
