/**
 * A rule condition or text template that cannot be parsed, or an evaluation that went wrong.
 * `column` is 1-based within the expression (or template) text.
 */
export class ExpressionError extends Error {
  readonly column: number | undefined;
  constructor(message: string, column?: number) {
    super(column === undefined ? message : `${message} (at column ${column})`);
    this.name = 'ExpressionError';
    this.column = column;
  }
}
