import type { Context } from '../../core/context';
import type { LogFn } from '../../protocol/log';
import { commandFilesByCall } from '../parts/commandFiles';
import type { Conversation } from './conversation';
import { latestPlanInfo } from '../runs/planRuns';
import { RESUME_WINDOW, conversationView } from '../sessions/sessionView';
import { todosFromEntries } from '../sessions/uiSessions';

/** Opens a stored session into a conversation that has none yet (resume): its Project and the state its view is built from. */
export function loadSession(conversation: Conversation, ctx: Context, id: string, log: LogFn): void {
  const session = ctx.sessions.open(id);
  for (const warning of session.warnings) log('warn', `session ${id}: ${warning}`);
  const project = conversation.slot.open(ctx, session, todosFromEntries(session.entries()));
  if (session.recovered) log('warn', `session ${id}: ${session.recovered}`);
  showActiveBranch(conversation);
  conversation.state.setPlan(latestPlanInfo(project));
}

/** The conversation's state becomes its session's active branch again, from the log (resume, fork, switch, load earlier). */
export function showActiveBranch(conversation: Conversation, window = RESUME_WINDOW): void {
  const project = conversation.slot.current;
  if (!project) return;
  const { state } = conversation;
  const view = conversationView(project.session, window);
  conversation.hiddenEarlier = view.earlier;
  state.replace(view.messages, view.info, view.usage, project.todos.get());
  state.attachChanges(project.journal?.entries() ?? []);
  state.attachCommandFiles(commandFilesByCall(project.session.fileHistory(), (id) => project.session.isReverted(id)));
  state.attachRules(project.session.rulesFired());
  state.setRun({ approvalMode: project.approvalMode, agent: project.agent });
}
