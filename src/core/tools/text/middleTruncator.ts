/**
 * Collects streamed output in bounded memory, keeping the beginning and the end; when more
 * arrives than fits, the middle is dropped and replaced by a note saying how much.
 */
export class MiddleTruncator {
  private head = '';
  private tail: string[] = [];
  private tailLength = 0;
  private totalChars = 0;
  private totalNewlines = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(readonly maxChars: number) {
    this.headMax = Math.floor(maxChars / 2);
    this.tailMax = maxChars - this.headMax;
  }

  append(text: string): void {
    if (text === '') return;
    this.totalChars += text.length;
    this.totalNewlines += countNewlines(text);
    let rest = text;
    if (this.head.length < this.headMax) {
      const room = this.headMax - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest === '') return;
    this.tail.push(rest);
    this.tailLength += rest.length;
    while (this.tailLength - this.tail[0].length >= this.tailMax) {
      this.tailLength -= this.tail[0].length;
      this.tail.shift();
    }
  }

  get length(): number {
    return this.totalChars;
  }

  toString(): string {
    let tail = this.tail.join('');
    if (tail.length > this.tailMax && this.totalChars > this.maxChars) tail = tail.slice(tail.length - this.tailMax);
    const elided = this.totalChars - this.head.length - tail.length;
    if (elided <= 0) return this.head + tail;
    const elidedLines = this.totalNewlines - countNewlines(this.head) - countNewlines(tail);
    return (
      `${this.head}\n… [${elided} characters (${elidedLines} line${elidedLines === 1 ? '' : 's'}) ` +
      `elided from the middle of the output] …\n${tail}`
    );
  }
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
