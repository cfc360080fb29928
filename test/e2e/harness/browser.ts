// Debian's Chromium through playwright-core, with the flags that work on these machines
// (they live in scripts/lib/chromium.mjs, shared with the integration runner).
import { launchChromium } from '../../../scripts/lib/chromium.mjs';
import type { LaunchedChromium } from '../../../scripts/lib/chromium.mjs';

export type { LaunchedChromium };

export function launchBrowser(options?: { headless?: boolean }): Promise<LaunchedChromium> {
  return launchChromium(options);
}
