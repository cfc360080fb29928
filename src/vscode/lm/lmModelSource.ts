import * as vscode from 'vscode';
import { KeelError, errorMessage } from '../../core/errors';
import type { ProviderFactory } from '../../core/model';
import type { LogFn } from '../../protocol/log';
import { LmLanguageModel } from './lmLanguageModel';
import { LM_PROVIDER } from '../../chat/settings/lmProviderName';

/**
 * The models the person has through other extensions (Copilot, or any extension that
 * provides language models), from `vscode.lm`, as Keel's `vscode-lm` model source. The list
 * is read again for every core build; the runtime rebuilds the core when VS Code says the
 * models changed. The first model listed is the default when nothing else is configured.
 */
export class LmModelSource {
  private models: vscode.LanguageModelChat[] = [];
  private checking: Promise<void> | undefined;

  /** `onChange`: the list differs from the one the core was built with. */
  constructor(
    private readonly log: LogFn,
    private readonly onChange: () => void,
  ) {}

  /**
   * Compares VS Code's current list with the one in use and reports a change. Needed besides
   * `vscode.lm.onDidChangeChatModels`: VS Code before 1.118 never fires that event
   * (microsoft/vscode#318187), so the runtime asks again whenever it is about to use the core.
   */
  checkForChanges(): Promise<void> {
    this.checking ??= this.compare().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async compare(): Promise<void> {
    let now: vscode.LanguageModelChat[];
    try {
      now = await vscode.lm.selectChatModels();
    } catch (err) {
      this.log('debug', `VS Code language models could not be listed: ${errorMessage(err)}`);
      return;
    }
    const key = (list: vscode.LanguageModelChat[]) => list.map((m) => `${m.vendor}/${m.id}`).join('\n');
    if (key(now) !== key(this.models)) this.onChange();
  }

  /** Reads the current models and returns the source for the core. */
  async factories(): Promise<ProviderFactory[]> {
    try {
      this.models = await vscode.lm.selectChatModels();
    } catch (err) {
      // Without the list Keel still works with configured endpoints; the log says why none are offered.
      this.log('warn', `VS Code language models could not be listed: ${errorMessage(err)}`);
      this.models = [];
    }
    if (this.models.length > 0) {
      this.log('info', `VS Code language models: ${this.models.map((m) => `${m.id} (${m.vendor})`).join(', ')}`);
    }
    return [this.factory()];
  }

  private factory(): ProviderFactory {
    const find = (id: string) => this.models.find((m) => m.id === id);
    return {
      name: LM_PROVIDER,
      createModel: (id) => {
        const chat = find(id);
        if (!chat) {
          const offered = this.models.map((m) => `${LM_PROVIDER}/${m.id}`);
          throw new KeelError(
            'model_unknown',
            offered.length
              ? vscode.l10n.t('VS Code offers no language model "{0}" now (it offers {1}). Choose another model in Keel.', id, offered.join(', '))
              : vscode.l10n.t('VS Code offers no language model "{0}" now (no extension provides one; sign in to Copilot or install a model provider). Choose another model in Keel.', id),
          );
        }
        return new LmLanguageModel(chat, this.log);
      },
      contextWindow: (id) => find(id)?.maxInputTokens || undefined,
      // The stable API passes text only.
      supportsImages: () => false,
      listModels: () => this.models.map((m) => ({ id: m.id, label: vscode.l10n.t('{0} ({1}, VS Code)', m.name, m.vendor), ...(m.maxInputTokens > 0 ? { contextWindow: m.maxInputTokens } : {}) })),
      defaultModel: () => this.models[0]?.id,
    };
  }
}
