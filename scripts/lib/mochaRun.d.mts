// Types for mochaRun.mjs, so the unit tests can import it.
export interface MochaCounts {
  failures: number;
  passed: number;
  skipped: number;
}
export declare function runMochaFiles(files: string[], options: { grep?: string; timeoutMs: number }): Promise<MochaCounts>;
export declare function mochaVerdict(counts: MochaCounts): { code: 0 | 1; problem?: string };
