// Types for chromium.mjs, so the TypeScript e2e harness can import it.
import type { BrowserContext, Page } from 'playwright-core';

export declare function chromiumPath(): string;
export declare const chromiumArgs: readonly string[];
export interface LaunchedChromium {
  context: BrowserContext;
  page: Page;
  profileDir: string;
  close(): Promise<void>;
}
export declare function launchChromium(options?: {
  headless?: boolean;
  viewport?: { width: number; height: number };
}): Promise<LaunchedChromium>;
