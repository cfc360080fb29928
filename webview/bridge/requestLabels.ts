import * as l10n from '@vscode/l10n';
import type { HostSide } from '../../src/protocol/catalogue';
import type { MethodOf, ParamsIn } from '../../src/protocol/side';

type HostMethod = MethodOf<HostSide>;

/**
 * What a request does, in the words of the error the page shows when it fails ("Opening the
 * plan failed: …"). A method without a line here is named by its catalogue name.
 */
const LABELS: { [M in HostMethod]?: (params: ParamsIn<HostSide, M>) => string } = {
  'session.send': () => l10n.t('Sending the message'),
  'session.cancel': () => l10n.t('Stopping the run'),
  'session.new': () => l10n.t('Starting a new chat'),
  'session.compact': () => l10n.t('Compacting the conversation'),
  'sessions.list': () => l10n.t('Listing past chats'),
  'sessions.rename': () => l10n.t('Renaming the chat'),
  'sessions.delete': () => l10n.t('Deleting the chat'),
  'sessions.export': ({ format }) => (format === 'json' ? l10n.t('Exporting the chat to JSON') : l10n.t('Exporting the chat to Markdown')),
  'session.editAndResend': () => l10n.t('Sending the edited message'),
  'session.switchBranch': () => l10n.t('Switching to the other version'),
  'session.loadEarlier': () => l10n.t('Loading the earlier messages'),
  'sessions.resume': () => l10n.t('Opening the chat'),
  'config.get': () => l10n.t('Reading the settings'),
  'config.set': (params) => (params.key === 'reasoning' ? l10n.t('Changing the reasoning of {0}', params.model) : l10n.t('Changing {0}', params.key)),
  'models.list': () => l10n.t('Listing models'),
  'agent.use': ({ name }) => (name ? l10n.t('Switching to the agent {0}', name) : l10n.t("Switching to Keel's own prompt")),
  'files.search': () => l10n.t('Searching files'),
  'link.open': () => l10n.t('Opening the link'),
  'code.insert': () => l10n.t('Inserting the code'),
  'file.open': ({ path }) => l10n.t('Opening {0}', path),
  'diff.open': () => l10n.t('Showing the diff'),
  'change.undo': () => l10n.t('Undoing the change'),
  'command.undo': () => l10n.t('Undoing the command'),
  'commandChange.diff': () => l10n.t('Showing the diff'),
  'changes.restore': () => l10n.t('Restoring files'),
  'settings.open': () => l10n.t('Opening settings'),
  'command.run': () => l10n.t('Running the command'),
  'mcp.prompt': ({ prompt }) => l10n.t('Getting the MCP prompt {0}', prompt),
  'mcp.answer': () => l10n.t("Answering the MCP server's request"),
  'workspaceProject.select': ({ name }) => l10n.t('Switching to the project {0}', name),
  'mode.set': () => l10n.t('Switching mode'),
  'plan.open': () => l10n.t('Opening the plan'),
  'plan.execute': () => l10n.t('Executing the plan'),
  'plan.refine': () => l10n.t('Refining the plan'),
  'plan.discard': () => l10n.t('Discarding the plan'),
  'mcpApp.open': () => l10n.t('Opening the MCP app'),
  'mcpApp.callTool': ({ name }) => l10n.t('The MCP app calling {0}', name),
};

export function requestLabel<M extends HostMethod>(method: M, params: ParamsIn<HostSide, M>): string {
  const label = LABELS[method] as ((params: ParamsIn<HostSide, M>) => string) | undefined;
  return label ? label(params) : method;
}
