import type { HeadlessChatPage } from './view/headlessChatView';
import type { KeelApi } from './keelApi';
import type { McpApprovalPrompt } from './mcp/mcpHub';
import type { WorktreePrompts } from './worktrees/worktreePrompts';

/**
 * Extra entry points `activate()` returns only when VS Code runs the extension's own tests
 * (`ExtensionMode.Test`, i.e. an `--extensionTestsPath` run). Never present for users.
 */
export interface KeelTestHooks {
  /**
   * Resolves the real `keel.chat` view provider with a view that has no browser page:
   * everything behind it (provider, bridge, controller, core, VS Code services) is the
   * product's; the test speaks the protocol on the returned page's transport.
   */
  openChatPage(): HeadlessChatPage;
  /**
   * Answers the question "may this workspace MCP server start?" instead of the modal dialog
   * (which a test cannot click). Everything around it (trust, fingerprints, asking again) is the product's.
   */
  setMcpApprovalPrompt(prompt: McpApprovalPrompt): Promise<void>;
  /**
   * Shows MCP sign-in pages to this function instead of the person's browser (the test plays
   * the browser and follows the redirects). The click that starts a sign-in, the loopback
   * listener, asExternalUri and SecretStorage stay the product's.
   */
  setSignInBrowser(open: (url: string) => Promise<void>): Promise<void>;
  /** Answers worktree cleanup's questions (Discard, uncommitted work) instead of the modal dialogs. */
  setWorktreePrompts(prompts: WorktreePrompts): Promise<void>;
  /** The lines written to the "Keel" log so far ("level: message"). */
  logLines(): string[];
  /** What Keel last told VS Code for each context key its `when` clauses read (loads the runtime). */
  contextKeys(): Promise<Record<string, boolean>>;
  /** The badge the Keel view shows now (approvals waiting across conversations); undefined or 0: none. */
  viewBadge(): Promise<{ value: number; tooltip?: string } | undefined>;
}

export interface KeelTestApi extends KeelApi {
  readonly testHooks: KeelTestHooks;
}

export type { HeadlessChatPage };
