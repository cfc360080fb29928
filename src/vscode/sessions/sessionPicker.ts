import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import type { ConversationActivity } from '../../protocol/conversationActivity';
import type { SessionSummary } from '../../protocol/sessionState';
import type { ChatController } from '../../chat/chatController';

const PAGE = 100;
const SEARCH_DELAY_MS = 150;

interface SessionItem extends vscode.QuickPickItem {
  session?: SessionSummary;
  /** The "Load more" row. */
  more?: true;
}

const RENAME: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: vscode.l10n.t('Rename') };
const EXPORT_MD: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('markdown'), tooltip: vscode.l10n.t('Export to Markdown') };
const EXPORT_JSON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('json'), tooltip: vscode.l10n.t('Export to JSON') };
const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: vscode.l10n.t('Delete') };

/**
 * "Keel: Open Session…": this workspace's conversations, newest first, searched by title and
 * message text as the person types. Choosing one resumes it in the view; the row's buttons
 * rename, export or delete it. Resolves once a conversation was chosen or the pick closed.
 */
export function pickSession(controller: ChatController, showView: () => Thenable<unknown>, log: (message: string) => void): Promise<void> {
  const pick = vscode.window.createQuickPick<SessionItem>();
  pick.title = vscode.l10n.t('Open Session');
  pick.placeholder = vscode.l10n.t('Search this workspace’s conversations (titles and messages)');
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  let query = '';
  let shown: SessionSummary[] = [];
  let total = 0;
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const render = (): void => {
    const items: SessionItem[] = shown.map((s) => ({
      label: s.title || vscode.l10n.t('Untitled chat'),
      description: describe(s),
      ...(s.activity ? { detail: activityText(s.activity) } : {}),
      // The host already matched message text: keep rows VS Code's own filter would hide.
      alwaysShow: query !== '',
      buttons: [RENAME, EXPORT_MD, EXPORT_JSON, DELETE],
      session: s,
    }));
    if (total > shown.length) items.push({ label: `$(ellipsis) ${vscode.l10n.t('Load more…')}`, description: vscode.l10n.t('{0} older', total - shown.length), alwaysShow: true, more: true });
    pick.items = items;
  };

  const load = async (append: boolean): Promise<void> => {
    const mine = ++generation;
    pick.busy = true;
    try {
      const page = await controller.sessions.list({ limit: PAGE, offset: append ? shown.length : 0, ...(query ? { query } : {}) });
      if (mine !== generation) return;
      shown = append ? [...shown, ...page.sessions] : page.sessions;
      total = page.total;
      render();
    } catch (err) {
      pick.items = [{ label: `$(error) ${errorMessage(err)}` }];
      log(`listing sessions failed: ${errorMessage(err)}`);
    } finally {
      if (mine === generation) pick.busy = false;
    }
  };

  const act = async (run: () => Promise<unknown>): Promise<void> => {
    try {
      await run();
    } catch (err) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Keel: {0}', errorMessage(err)));
    }
    await load(false);
  };

  return new Promise<void>((resolve) => {
    pick.onDidChangeValue((value) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        query = value.trim();
        void load(false);
      }, SEARCH_DELAY_MS);
    });
    pick.onDidTriggerItemButton(({ button, item }) => {
      const s = item.session;
      if (!s) return;
      if (button === RENAME) {
        void act(async () => {
          const title = await vscode.window.showInputBox({ title: vscode.l10n.t('Rename conversation'), value: s.title, prompt: vscode.l10n.t('Empty: the first prompt is the title again') });
          if (title !== undefined) await controller.sessions.rename(s.id, title);
        });
      } else if (button === EXPORT_MD) void act(() => controller.sessions.export(s.id, 'markdown'));
      else if (button === EXPORT_JSON) void act(() => controller.sessions.export(s.id, 'json'));
      else if (button === DELETE) void act(() => controller.sessions.delete(s.id));
    });
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0];
      if (item?.more) {
        void load(true);
        return;
      }
      const s = item?.session;
      if (!s) return;
      pick.hide();
      void (async () => {
        await showView();
        await controller.sessions.resume(s.id);
        controller.showPanel('chat');
      })().catch((err: unknown) => void vscode.window.showErrorMessage(vscode.l10n.t('Keel: {0}', errorMessage(err))));
    });
    pick.onDidHide(() => {
      clearTimeout(timer);
      pick.dispose();
      resolve();
    });
    pick.show();
    void load(false);
  });
}

/** The conversation's state in this window, as a codicon and words (the sessions panel shows the same). */
export function activityText(activity: ConversationActivity): string {
  switch (activity) {
    case 'running':
      return `$(sync~spin) ${vscode.l10n.t('Running')}`;
    case 'approval':
      return `$(bell-dot) ${vscode.l10n.t('Waiting for approval')}`;
    case 'queued':
      return `$(clock) ${vscode.l10n.t('Queued')}`;
    case 'finished':
      return `$(check) ${vscode.l10n.t('Finished')}`;
    case 'failed':
      return `$(error) ${vscode.l10n.t('Failed')}`;
  }
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

function describe(s: SessionSummary): string {
  const parts = [ago(s.updatedAt), `${s.messageCount} messages`];
  if (s.tokens) parts.push(`${compact(s.tokens)} tokens`);
  return parts.join(' · ');
}

function ago(ms: number): string {
  const minutes = Math.round((ms - Date.now()) / 60_000);
  if (Math.abs(minutes) < 60) return relative.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 24) return relative.format(hours, 'hour');
  return relative.format(Math.round(hours / 24), 'day');
}

function compact(n: number): string {
  return n < 1000 ? String(n) : n < 1_000_000 ? `${(n / 1000).toFixed(1)}k` : `${(n / 1_000_000).toFixed(1)}M`;
}
