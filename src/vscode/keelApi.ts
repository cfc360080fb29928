import type * as vscode from 'vscode';
import type { KeelPlugin } from '../core/plugins/pluginTypes';

/**
 * What `activate()` returns: other extensions get it with
 * `vscode.extensions.getExtension('keel-dev.keel')?.activate()`.
 */
export interface KeelApi {
  readonly apiVersion: 1;
  /**
   * Adds a plugin (tools, prompt, config, model providers, ...). Registered before Keel's
   * core exists, it is there from the start; registered later, it joins the running core
   * (its config, alias and provider hooks apply from the next rebuild). Dispose to remove it.
   */
  registerPlugin(plugin: KeelPlugin): vscode.Disposable;
}

export type { KeelPlugin };
