/** Where a CLI command writes, and the environment it reads. */
export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Record<string, string | undefined>;
}
