import type { Context } from '../../core/context';
import { errorMessage } from '../../core/errors';
import type { RequestResult } from '../../protocol/catalogue';
import type { LogFn } from '../../protocol/log';
import type { ConfigSummary } from '../../protocol/sessionState';
import type { ConversationState } from '../conversations/conversationState';
import type { CoreAccess } from '../runtime/coreAccess';
import { configSummaryOf } from '../runtime/coreQueries';
import { workspaceProjectsFor } from './workspaceProjectChoice';
import type { ProjectSlot } from '../runtime/projectSlot';
import { uiErrorOf } from '../runs/runContext';
import type { ModelReasoning } from '../../core/model';
import type { ModelReasoningInfo } from '../../protocol/sessionState';

/** The model's reasoning as the composer's picker shows it. */
export function reasoningInfo(reasoning: ModelReasoning | undefined): ModelReasoningInfo | undefined {
  return reasoning && { model: reasoning.id, levels: [...reasoning.support.levels], value: reasoning.choice };
}

export interface ConfigSyncDeps {
  core: CoreAccess;
  log: LogFn;
  /** Workspace Trust, for the summary when the core cannot be built. */
  trusted(): boolean;
  state: ConversationState;
  slot: ProjectSlot;
  isRunning(): boolean;
}

/** Keeps what the view shows of the configuration (summary, model, approval mode, folders) current. */
export class ConfigSync {
  constructor(private readonly deps: ConfigSyncDeps) {}

  async summary(): Promise<ConfigSummary> {
    try {
      return await configSummaryOf(await this.deps.core.get());
    } catch (err) {
      const problem = uiErrorOf(this.deps.core, err).message;
      this.deps.log('warn', `core: cannot start: ${problem}`);
      return { modelConfigured: false, workspaceTrusted: this.deps.trusted(), problem };
    }
  }

  /** Never rejects: a failure here is logged and the view keeps its last summary. */
  async refresh(): Promise<void> {
    try {
      await this.update();
    } catch (err) {
      this.deps.log('error', `refreshing the configuration summary failed: ${errorMessage(err)}`);
    }
  }

  /** Reads the folders' types and branches again and tells the view if anything changed. */
  async projects(ctx: Context): Promise<RequestResult<'workspaceProject.select'>> {
    const projects = await workspaceProjectsFor(ctx, this.deps.slot.choice.currentName(ctx, this.deps.slot.current));
    this.deps.state.setWorkspaceProjects(projects);
    return projects;
  }

  private async update(): Promise<void> {
    const { state } = this.deps;
    state.setConfig(await this.summary());
    const built = this.deps.core.peek();
    if (!built) {
      state.setRun({ model: null });
      return;
    }
    await this.projects(built.ctx);
    if (!this.deps.isRunning()) {
      const purpose = state.run.mode === 'plan' ? 'planModel' : 'model';
      state.setRun({
        model: built.ctx.models.configuredId(purpose) ?? null,
        approvalMode: this.deps.slot.current?.approvalMode ?? built.ctx.config.approvalMode,
        reasoning: reasoningInfo(built.ctx.models.reasoning(purpose)),
      });
    }
  }
}
