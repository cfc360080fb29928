import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Session } from '../session/session';
import type { PlanRecord, PlanStatus } from '../session/sessionRecords';

/** Where a session's plans live as files: `<sessions>/<id>.plans/`, next to its log. */
export function planFolder(sessionLogPath: string): string {
  return `${sessionLogPath.endsWith('.jsonl') ? sessionLogPath.slice(0, -'.jsonl'.length) : sessionLogPath}.plans`;
}

/** Statuses after which a plan is settled: it can no longer be executed, refined or discarded. */
const SETTLED: ReadonlySet<PlanStatus> = new Set(['executed', 'refined', 'discarded']);

export function isOpenPlan(plan: PlanRecord): boolean {
  return !SETTLED.has(plan.status);
}

/**
 * The plans of one conversation. Each plan is a record in the session log and a Markdown
 * file in the session's folder that the person may edit: the file is the plan's working
 * copy, and `sync` records an edit in the log, so what executes is what the file says and
 * the saved session keeps that version.
 */
export class PlanBook {
  private readonly session: Session;

  constructor(session: Session) {
    this.session = session;
  }

  list(): readonly PlanRecord[] {
    return this.session.plans();
  }

  get(id: string): PlanRecord | undefined {
    return this.list().find((p) => p.id === id);
  }

  /** The newest plan, settled or not. */
  latest(): PlanRecord | undefined {
    return this.list().at(-1);
  }

  filePath(id: string): string {
    if (!/^plan-\d+$/.test(id)) throw new Error(`not a plan id: ${id}`);
    return join(planFolder(this.session.path), `${id}.md`);
  }

  /** A new plan presented by `messageId`: recorded, and written out as its file. */
  record(messageId: string, text: string): PlanRecord {
    const id = `plan-${this.list().length + 1}`;
    const plan = this.session.appendPlan({ id, messageId, status: 'proposed', text });
    this.writeFile(id, text);
    return plan;
  }

  /**
   * The plan as its file now reads. A changed file is recorded as an `edited` version; a
   * missing file is written again from the log (the log is the plan's lasting copy).
   */
  sync(id: string): PlanRecord {
    const plan = this.require(id);
    const path = this.filePath(id);
    if (!existsSync(path)) {
      this.writeFile(id, plan.text);
      return plan;
    }
    const text = readFileSync(path, 'utf8');
    if (text === plan.text || !isOpenPlan(plan)) return plan;
    return this.session.appendPlan({ id, messageId: plan.messageId, status: 'edited', text });
  }

  /** Settles an open plan (executed, refined, discarded), keeping its text. */
  settle(id: string, status: 'executed' | 'refined' | 'discarded'): PlanRecord {
    const plan = this.require(id);
    if (!isOpenPlan(plan)) throw new Error(`The plan ${id} was already ${plan.status}.`);
    return this.session.appendPlan({ id, messageId: plan.messageId, status, text: plan.text });
  }

  /** Makes sure the plan's file exists (it may have been deleted) and returns its path. */
  ensureFile(id: string): string {
    const plan = this.require(id);
    const path = this.filePath(id);
    if (!existsSync(path)) this.writeFile(id, plan.text);
    return path;
  }

  private require(id: string): PlanRecord {
    const plan = this.get(id);
    if (!plan) throw new Error(`This conversation has no plan ${id}.`);
    return plan;
  }

  private writeFile(id: string, text: string): void {
    mkdirSync(planFolder(this.session.path), { recursive: true });
    writeFileSync(this.filePath(id), text, 'utf8');
  }
}
