import * as vscode from 'vscode';
import { KeelError, errorMessage } from '../../core/errors';
import type { ProviderFactory } from '../../core/model/modelRegistry';
import type { LogFn } from '../../protocol/log';
import { LM_PROVIDER, LmLanguageModel } from './lmLanguageModel';

/**
 * The models the person has through other extensions (Copilot, or any extension that
 * provides language models), from `vscode.lm`, as Keel's `vscode-lm` model source. The list
 * is read again for every core build; the runtime rebuilds the core when VS Code says the
 * models changed. The first model listed is the default when nothing else is configured.
 */
export class LmModelSource {
  private models: vscode.LanguageModelChat[] = [];

  constructor(private readonly log: LogFn) {}

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
            `VS Code offers no language model "${id}" now` +
              (offered.length ? ` (it offers ${offered.join(', ')}).` : ' (no extension provides one; sign in to Copilot or install a model provider).') +
              ' Choose another model in Keel.',
          );
        }
        return new LmLanguageModel(chat);
      },
      contextWindow: (id) => find(id)?.maxInputTokens || undefined,
      // The stable API passes text only.
      supportsImages: () => false,
      listModels: () => this.models.map((m) => ({ id: m.id, label: `${m.name} (${m.vendor}, VS Code)`, ...(m.maxInputTokens > 0 ? { contextWindow: m.maxInputTokens } : {}) })),
      defaultModel: () => this.models[0]?.id,
    };
  }
}
