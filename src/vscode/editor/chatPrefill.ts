import * as vscode from 'vscode';
import type { EventData } from '../../protocol/catalogue';
import type { KeelRuntime } from '../keelRuntime';

const FOCUS_VIEW = 'keel.chat.focus';

/**
 * Shows the chat with its composer filled (text and mention chips); nothing is sent until the
 * person presses Enter. `fresh`: a request of its own, in a new conversation unless the one in
 * view is empty.
 */
export async function prefillChat(runtime: KeelRuntime, prefill: EventData<'composer'>, fresh: boolean): Promise<void> {
  if (fresh && (runtime.controller.messages().length > 0 || runtime.controller.isRunning)) await runtime.controller.sessions.newSession();
  await vscode.commands.executeCommand(FOCUS_VIEW);
  runtime.controller.showPanel('chat');
  runtime.controller.prefillComposer(prefill);
}
