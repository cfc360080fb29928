import type { Redirect } from './shellAst';

/** The command is not valid shell, or uses a construct Keel does not analyse. */
export class ShellParseError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'ShellParseError';
  }
}

/** A here-doc whose body starts after the next newline. */
export interface PendingHereDoc {
  redirect: Redirect;
  delimiter: string;
  stripTabs: boolean;
  quoted: boolean;
}

/** Deepest nesting of substitutions and compound commands before the parser gives up. */
export const maxShellNesting = 64;

/** A position in shell source, shared by the grammar and the word reader. */
export class ShellCursor {
  pos = 0;
  depth = 0;
  readonly pendingHereDocs: PendingHereDoc[] = [];

  constructor(readonly src: string) {}

  get eof(): boolean {
    return this.pos >= this.src.length;
  }

  peek(offset = 0): string {
    return this.src.charAt(this.pos + offset);
  }

  startsWith(text: string): boolean {
    return this.src.startsWith(text, this.pos);
  }

  fail(message: string): never {
    throw new ShellParseError(message, this.pos);
  }

  enter(): void {
    this.depth++;
    if (this.depth > maxShellNesting) this.fail(`nested more than ${maxShellNesting} levels deep`);
  }

  leave(): void {
    this.depth--;
  }
}
