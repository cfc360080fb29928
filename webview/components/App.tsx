import * as l10n from '@vscode/l10n';
import { useMeta, useMessageIds } from '../store/storeHooks';
import { ApprovalDock } from './approval/ApprovalDock';
import { Composer } from './composer/Composer';
import { Footer } from './footer/Footer';
import { Header } from './Header';
import { MessageList } from './messages/MessageList';
import { EmptyState } from './panels/EmptyState';
import { EarlierMessages } from './panels/EarlierMessages';
import { RulesInEffect, TrimmedNote } from './panels/ContextNotes';
import { ConfigNotice } from './panels/ConfigNotice';
import { ErrorBanners } from './panels/ErrorBanners';
import { FirstRunPanel } from './panels/FirstRunPanel';
import { McpStatusList } from './panels/McpStatusList';
import { RetryNote } from './panels/RetryNote';
import { SessionsPanel } from './panels/SessionsPanel';
import { TodoPanel } from './panels/TodoPanel';
import { UntrustedBanner } from './panels/UntrustedBanner';
import { PlanActions } from './plan/PlanActions';
import { PlanBanner } from './plan/PlanBanner';
import { ReadOnlyBanner } from './panels/ReadOnlyBanner';
import { SandboxNotice } from './panels/SandboxNotice';

/** The whole view. Until the first snapshot it only says it is connecting. */
export function App() {
  const ready = useMeta((meta) => meta.ready);
  const panel = useMeta((meta) => meta.panel);
  const trusted = useMeta((meta) => meta.config.workspaceTrusted);
  const modelConfigured = useMeta((meta) => meta.config.modelConfigured);
  const empty = useMessageIds().length === 0;

  if (!ready) {
    return (
      <main className="app app-connecting" aria-busy="true">
        <p>{l10n.t('Connecting to Keel…')}</p>
      </main>
    );
  }

  return (
    <main className="app">
      <Header />
      {trusted ? null : <UntrustedBanner />}
      <ConfigNotice />
      {trusted ? <SandboxNotice /> : null}
      <PlanBanner />
      <ReadOnlyBanner />
      {panel === 'sessions' ? (
        <>
          <ErrorBanners />
          <SessionsPanel />
        </>
      ) : (
        <>
          {modelConfigured ? null : <FirstRunPanel />}
          <EarlierMessages />
          {empty ? <EmptyState /> : <MessageList />}
          <RulesInEffect />
          <PlanActions />
          <TodoPanel />
          <McpStatusList />
          <TrimmedNote />
          <RetryNote />
          <ErrorBanners />
          <ApprovalDock />
          <Composer />
        </>
      )}
      <Footer />
    </main>
  );
}
