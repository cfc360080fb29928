import { compileGlob } from './globPattern';

export interface ProtectedPathPattern {
  /** Glob over the path relative to its workspace folder; `**\/` means "in any folder". */
  pattern: string;
  reason: string;
}

/**
 * Paths that always need the person's approval, in every mode, including creation.
 * Matched case-insensitively because macOS and Windows file systems are.
 */
export const PROTECTED_PATH_PATTERNS: readonly ProtectedPathPattern[] = [
  { pattern: '**/.vscode/**', reason: 'editor settings, tasks and launch configurations can run code' },
  { pattern: '**/*.code-workspace', reason: 'workspace settings can run code and change approvals' },
  { pattern: '**/.git/**', reason: 'git internals: hooks and config can run code' },
  { pattern: '**/.keel/**', reason: "Keel's own settings, rules and MCP configuration" },
  { pattern: '**/.keel/rules/**', reason: 'rules files steer the agent' },
  { pattern: '**/AGENTS.md', reason: 'rules files steer the agent' },
  { pattern: '**/CLAUDE.md', reason: 'rules files steer the agent' },
  { pattern: '**/.cursorrules', reason: 'rules files steer the agent' },
  { pattern: '**/.cursor/rules/**', reason: 'rules files steer the agent' },
  { pattern: '**/.clinerules', reason: 'rules files steer the agent' },
  { pattern: '**/.clinerules/**', reason: 'rules files steer the agent' },
  { pattern: '**/.windsurfrules', reason: 'rules files steer the agent' },
  { pattern: '**/.github/copilot-instructions.md', reason: 'rules files steer the agent' },
  { pattern: '**/.github/instructions/**', reason: 'rules files steer the agent' },
  { pattern: '**/.windsurf/rules/**', reason: 'rules files steer the agent' },
  { pattern: '**/.claude/**', reason: 'Claude Code rules, skills, commands, agents and hooks steer the agent or run code' },
  { pattern: '**/.github/skills/**', reason: 'skills steer the agent and ship scripts' },
  { pattern: '**/.github/prompts/**', reason: 'command files steer the agent' },
  { pattern: '**/.github/agents/**', reason: 'agent definitions steer the agent' },
  { pattern: '**/.codex/**', reason: 'Codex agents and settings steer the agent' },
  { pattern: '**/.vscode/mcp.json', reason: 'MCP configuration starts programs' },
  { pattern: '**/.mcp.json', reason: 'MCP configuration starts programs' },
  { pattern: '**/.keel/**/mcp.json', reason: 'MCP configuration starts programs' },
];

const compiled = PROTECTED_PATH_PATTERNS.map((p) => compileGlob(p.pattern, { ignoreCase: true }));

/**
 * Whether a slash-separated path (relative to its workspace folder) is protected.
 * A folder pattern (`x/**`) also covers the folder itself, and `.git` as a file (worktrees).
 */
export function matchesProtectedPattern(relPath: string): boolean {
  const path = relPath.replace(/\\/g, '/').replace(/^\/+/, '');
  const asFolder = `${path}/`;
  return compiled.some((re) => re.test(path) || re.test(asFolder));
}
