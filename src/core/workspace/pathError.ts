/** A path the agent may not use: outside the workspace, malformed, or a Windows path trick. */
export class PathError extends Error {
  constructor(
    message: string,
    /** The path exactly as the caller gave it. */
    readonly input: string,
  ) {
    super(message);
    this.name = 'PathError';
  }
}
