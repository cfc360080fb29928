import type { AndOrList, Assignment, Command, ForCommand, IfCommand, LoopCommand, Pipeline, Redirect, RedirectOp, Script, SimpleCommand, Word } from './shellAst';
import { ShellCursor } from './shellCursor';
import { readHereDocs } from './hereDocs';
import { readWord } from './shellWords';
import type { NestedParser } from './shellWords';

type Token =
  | { kind: 'eof' }
  | { kind: 'op'; op: string }
  | { kind: 'word'; word: Word; assignment?: Assignment }
  | { kind: 'fd'; fd: number };

const redirectOps: ReadonlySet<string> = new Set(['>', '>>', '>|', '<', '<>', '&>', '&>>', '>&', '<&', '<<', '<<-', '<<<']);
/** Longest first, so `&&` wins over `&` and `<<<` over `<<`. */
const operators = ['<<<', '<<-', '&>>', '&&', '||', '|&', ';;', ';&', '&>', '>>', '>|', '>&', '<<', '<>', '<&', '((', ';', '&', '|', '(', ')', '<', '>'];
const unsupportedWords = new Map([
  ['case', '"case" statements are not supported'],
  ['select', '"select" loops are not supported'],
  ['function', 'function definitions are not supported'],
  ['coproc', '"coproc" is not supported'],
  ['[[', '"[[ ... ]]" tests are not supported'],
]);
const misplacedWords = new Set(['then', 'elif', 'else', 'fi', 'do', 'done', '}', 'esac', ']]']);
const assignmentStart = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/;

/**
 * Parses a bash command line into a Script. Throws ShellParseError for invalid input and for
 * constructs outside the supported subset (case, [[ ]], arithmetic, functions, arrays, most
 * parameter-expansion operators): a command that cannot be analysed must be asked about.
 */
export function parseShell(source: string): Script {
  const parser = new Parser(new ShellCursor(source));
  return parser.parseAll();
}

class Parser implements NestedParser {
  private lookahead: Token | undefined;

  constructor(private readonly cur: ShellCursor) {}

  parseAll(): Script {
    const script = this.parseScript([], false);
    const tok = this.peek();
    if (tok.kind !== 'eof') this.unexpected(tok);
    this.readHereDocs();
    return script;
  }

  untilParen(cur: ShellCursor): Script {
    const pending = cur.pendingHereDocs.length;
    const script = this.parseScript([], true);
    this.expectOp(')');
    if (cur.pendingHereDocs.length > pending) cur.fail('a here-doc inside a substitution must end inside it');
    return script;
  }

  text(src: string, outer: ShellCursor): Script {
    const cur = new ShellCursor(src);
    cur.depth = outer.depth;
    const script = new Parser(cur).parseAll();
    if (cur.pendingHereDocs.length > 0) outer.fail('a here-doc inside backticks must end inside them');
    return script;
  }

  // Grammar

  private parseScript(terminators: readonly string[], closeParen: boolean): Script {
    this.cur.enter();
    const items: AndOrList[] = [];
    for (;;) {
      this.skipNewlines();
      const tok = this.peek();
      if (tok.kind === 'eof') break;
      if (closeParen && tok.kind === 'op' && tok.op === ')') break;
      if (tok.kind === 'word' && terminators.includes(tok.word.raw)) break;
      const list = this.parseAndOr();
      items.push(list);
      const sep = this.peek();
      if (sep.kind === 'op' && (sep.op === ';' || sep.op === '&' || sep.op === '\n')) {
        this.next();
        if (sep.op === '&') list.background = true;
        continue;
      }
      break;
    }
    this.cur.leave();
    return { items };
  }

  private parseAndOr(): AndOrList {
    const list: AndOrList = { first: this.parsePipeline(), rest: [], background: false };
    for (;;) {
      const tok = this.peek();
      if (tok.kind !== 'op' || (tok.op !== '&&' && tok.op !== '||')) return list;
      this.next();
      this.skipNewlines();
      list.rest.push({ op: tok.op, pipeline: this.parsePipeline() });
    }
  }

  private parsePipeline(): Pipeline {
    const pipeline: Pipeline = { negated: false, timed: false, commands: [] };
    for (;;) {
      const tok = this.peek();
      if (tok.kind === 'word' && tok.word.raw === '!') {
        pipeline.negated = !pipeline.negated;
        this.next();
      } else if (tok.kind === 'word' && tok.word.raw === 'time' && !pipeline.timed) {
        pipeline.timed = true;
        this.next();
        const flag = this.peek();
        if (flag.kind === 'word' && flag.word.raw === '-p') this.next();
      } else break;
    }
    pipeline.commands.push(this.parseCommand());
    for (;;) {
      const tok = this.peek();
      if (tok.kind !== 'op' || (tok.op !== '|' && tok.op !== '|&')) return pipeline;
      this.next();
      this.skipNewlines();
      pipeline.commands.push(this.parseCommand());
    }
  }

  private parseCommand(): Command {
    const tok = this.peek();
    if (tok.kind === 'op' && tok.op === '(') {
      this.next();
      const body = this.parseScript([], true);
      this.expectOp(')');
      this.requireCommands(body, 'a subshell');
      return { type: 'subshell', body, redirects: this.parseRedirects() };
    }
    if (tok.kind === 'op' && tok.op === '((') this.cur.fail('arithmetic commands "(( ))" are not supported');
    if (tok.kind === 'word') {
      const raw = tok.word.raw;
      const unsupported = unsupportedWords.get(raw);
      if (unsupported) this.cur.fail(unsupported);
      if (misplacedWords.has(raw)) this.cur.fail(`unexpected "${raw}"`);
      if (raw === '{') {
        this.next();
        const body = this.parseScript(['}'], false);
        this.expectWord('}');
        this.requireCommands(body, 'a { } group');
        return { type: 'group', body, redirects: this.parseRedirects() };
      }
      if (raw === 'if') return this.parseIf();
      if (raw === 'while' || raw === 'until') return this.parseLoop(raw);
      if (raw === 'for') return this.parseFor();
    }
    return this.parseSimple();
  }

  private parseIf(): IfCommand {
    this.next();
    const clauses: IfCommand['clauses'] = [];
    let elseBody: Script | undefined;
    for (;;) {
      const condition = this.parseScript(['then'], false);
      this.expectWord('then');
      const body = this.parseScript(['elif', 'else', 'fi'], false);
      this.requireCommands(condition, 'an if condition');
      this.requireCommands(body, 'an if branch');
      clauses.push({ condition, body });
      const tok = this.next();
      if (tok.kind === 'word' && tok.word.raw === 'elif') continue;
      if (tok.kind === 'word' && tok.word.raw === 'else') {
        elseBody = this.parseScript(['fi'], false);
        this.requireCommands(elseBody, 'an else branch');
        this.expectWord('fi');
        break;
      }
      if (tok.kind === 'word' && tok.word.raw === 'fi') break;
      this.unexpected(tok);
    }
    const out: IfCommand = { type: 'if', clauses, redirects: this.parseRedirects() };
    if (elseBody) out.elseBody = elseBody;
    return out;
  }

  private parseLoop(type: 'while' | 'until'): LoopCommand {
    this.next();
    const condition = this.parseScript(['do'], false);
    this.requireCommands(condition, `a ${type} condition`);
    const body = this.parseDoDone();
    return { type, condition, body, redirects: this.parseRedirects() };
  }

  private parseFor(): ForCommand {
    this.next();
    const nameTok = this.next();
    if (nameTok.kind === 'op' && nameTok.op === '((') this.cur.fail('arithmetic "for ((...))" loops are not supported');
    if (nameTok.kind !== 'word' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(nameTok.word.raw)) this.cur.fail('"for" needs a variable name');
    let items: Word[] | undefined;
    this.skipNewlines();
    const tok = this.peek();
    if (tok.kind === 'word' && tok.word.raw === 'in') {
      this.next();
      items = [];
      for (;;) {
        const item = this.peek();
        if (item.kind !== 'word') break;
        items.push(item.word);
        this.next();
      }
      const sep = this.next();
      if (sep.kind !== 'op' || (sep.op !== ';' && sep.op !== '\n')) this.unexpected(sep);
    } else if (tok.kind === 'op' && tok.op === ';') {
      this.next();
    }
    const body = this.parseDoDone();
    const out: ForCommand = { type: 'for', name: nameTok.word.raw, body, redirects: this.parseRedirects() };
    if (items) out.items = items;
    return out;
  }

  private parseDoDone(): Script {
    this.skipNewlines();
    this.expectWord('do');
    const body = this.parseScript(['done'], false);
    this.requireCommands(body, 'a loop body');
    this.expectWord('done');
    return body;
  }

  private parseSimple(): SimpleCommand {
    const cmd: SimpleCommand = { type: 'simple', assignments: [], words: [], redirects: [] };
    for (;;) {
      const tok = this.peek();
      if (tok.kind === 'fd' || (tok.kind === 'op' && redirectOps.has(tok.op))) {
        cmd.redirects.push(this.parseRedirect());
        continue;
      }
      if (tok.kind !== 'word') break;
      this.next();
      if (cmd.words.length === 0 && tok.assignment) {
        cmd.assignments.push(tok.assignment);
        continue;
      }
      cmd.words.push(tok.word);
    }
    const after = this.peek();
    if (after.kind === 'op' && (after.op === '(' || after.op === '((')) {
      this.cur.fail(cmd.words.length === 1 ? 'function definitions are not supported' : 'unexpected "("');
    }
    if (cmd.words.length === 0 && cmd.assignments.length === 0 && cmd.redirects.length === 0) this.unexpected(after);
    return cmd;
  }

  private parseRedirects(): Redirect[] {
    const out: Redirect[] = [];
    for (;;) {
      const tok = this.peek();
      if (tok.kind === 'fd' || (tok.kind === 'op' && redirectOps.has(tok.op))) out.push(this.parseRedirect());
      else return out;
    }
  }

  private parseRedirect(): Redirect {
    let tok = this.next();
    let fd: number | undefined;
    if (tok.kind === 'fd') {
      fd = tok.fd;
      tok = this.next();
    }
    if (tok.kind !== 'op' || !redirectOps.has(tok.op)) return this.unexpected(tok);
    const op = tok.op as RedirectOp;
    const target = this.next();
    if (target.kind !== 'word') return this.unexpected(target);
    const redirect: Redirect = { op, target: target.word };
    if (fd !== undefined) redirect.fd = fd;
    if (op === '<<' || op === '<<-') {
      const delimiter = target.word.parts.map((p) => (p.kind === 'text' ? p.text : undefined));
      if (delimiter.some((d) => d === undefined)) this.cur.fail('a here-doc delimiter must be plain text');
      this.cur.pendingHereDocs.push({
        redirect,
        delimiter: delimiter.join(''),
        stripTabs: op === '<<-',
        quoted: /['"\\]/.test(target.word.raw),
      });
    }
    return redirect;
  }

  private requireCommands(script: Script, what: string): void {
    if (script.items.length === 0) this.cur.fail(`${what} has no commands`);
  }

  private expectOp(op: string): void {
    const tok = this.next();
    if (tok.kind !== 'op' || tok.op !== op) this.unexpected(tok);
  }

  private expectWord(word: string): void {
    const tok = this.next();
    if (tok.kind !== 'word' || tok.word.raw !== word) this.unexpected(tok);
  }

  private unexpected(tok: Token): never {
    if (tok.kind === 'eof') return this.cur.fail('unexpected end of the command');
    if (tok.kind === 'op') return this.cur.fail(`unexpected "${tok.op === '\n' ? 'newline' : tok.op}"`);
    if (tok.kind === 'fd') return this.cur.fail(`unexpected "${tok.fd}"`);
    return this.cur.fail(`unexpected "${tok.word.raw}"`);
  }

  private skipNewlines(): void {
    for (;;) {
      const tok = this.peek();
      if (tok.kind !== 'op' || tok.op !== '\n') return;
      this.next();
    }
  }

  // Tokens

  private peek(): Token {
    this.lookahead ??= this.lex();
    return this.lookahead;
  }

  private next(): Token {
    const tok = this.peek();
    this.lookahead = undefined;
    return tok;
  }

  private lex(): Token {
    const cur = this.cur;
    for (;;) {
      const c = cur.peek();
      if (c === ' ' || c === '\t') cur.pos++;
      else if (c === '\\' && cur.peek(1) === '\n') cur.pos += 2;
      else if (c === '#') {
        const end = cur.src.indexOf('\n', cur.pos);
        cur.pos = end < 0 ? cur.src.length : end;
      } else break;
    }
    if (cur.eof) return { kind: 'eof' };
    if (cur.peek() === '\n') {
      cur.pos++;
      this.readHereDocs();
      return { kind: 'op', op: '\n' };
    }
    if ((cur.peek() === '<' || cur.peek() === '>') && cur.peek(1) === '(') return this.lexWord();
    for (const op of operators) {
      if (!cur.startsWith(op)) continue;
      if (op === ';;' || op === ';&') cur.fail(`"${op}" belongs to case statements, which are not supported`);
      cur.pos += op.length;
      return { kind: 'op', op };
    }
    return this.lexWord();
  }

  private lexWord(): Token {
    const cur = this.cur;
    const start = cur.pos;
    const assignment = assignmentStart.exec(cur.src.slice(start, start + 256));
    const word = readWord(cur, this);
    const nextChar = cur.peek();
    if (nextChar === '<' || nextChar === '>') {
      if (/^[0-9]+$/.test(word.raw)) return { kind: 'fd', fd: Number(word.raw) };
      if (/^\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(word.raw)) cur.fail('named file descriptors "{var}>" are not supported');
    }
    if (!assignment) return { kind: 'word', word };
    const prefix = assignment[0].length;
    const value = valueAfter(word, prefix);
    return {
      kind: 'word',
      word,
      assignment: { name: assignment[1], append: assignment[2] === '+', value, raw: word.raw },
    };
  }

  /** Reads the bodies of here-docs whose operator was on the line just ended. */
  private readHereDocs(): void {
    readHereDocs(this.cur, (bodyCursor) => ({
      untilParen: (cur) => new Parser(cur).untilParen(cur),
      text: (src) => this.text(src, bodyCursor),
    }));
  }
}

/** The value part of an assignment word, without its `name=` prefix. */
function valueAfter(word: Word, prefix: number): Word {
  const raw = word.raw.slice(prefix);
  const [first, ...rest] = word.parts;
  if (first?.kind !== 'text') return { parts: word.parts, raw };
  const text = first.text.slice(prefix);
  return { parts: text === '' ? rest : [{ kind: 'text', text }, ...rest], raw };
}
