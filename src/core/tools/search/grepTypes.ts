import type { GlobFilter } from './globFilter';

export type GrepMode = 'files_with_matches' | 'content' | 'count';

export interface GrepQuery {
  pattern: string;
  ignoreCase: boolean;
  mode: GrepMode;
  /** Context lines before and after each match (content mode). */
  before: number;
  after: number;
  /** Real absolute folders or files to search. */
  roots: string[];
  glob?: GlobFilter;
}

export interface GrepLine {
  /** 1-based. */
  line: number;
  /** The line without its line ending. */
  text: string;
  /** False for a context line. */
  match: boolean;
}

export interface GrepFileHits {
  path: string;
  /** Matching lines in the file. */
  count: number;
  /** Content mode only: matching and context lines in order. */
  lines: GrepLine[];
}

export interface GrepOutcome {
  files: GrepFileHits[];
  /** True when a safety cap stopped the search before it finished. */
  truncated: boolean;
  /** Files or folders that could not be read. */
  warnings: string[];
}

/** The search stops collecting past these; the output says the results are incomplete. */
export const grepMaxFiles = 20_000;
export const grepMaxContentLines = 10_000;
/** Files larger than this are skipped by both engines (ripgrep's --max-filesize). */
export const grepMaxFileBytes = 20 * 1024 * 1024;

/** A pattern the engine rejected (bad regular expression); the message says why. */
export class GrepPatternError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'GrepPatternError';
  }
}
