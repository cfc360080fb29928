import * as l10n from '@vscode/l10n';
import type { McpRequestPart, McpRequestState } from '../../../src/protocol/mcpRequests';
import { Badge } from '../../ui/Badge';
import { Icon } from '../../ui/Icon';
import { AnswerButtons, GoneNote } from './McpAnswerButtons';
import { McpFormBody } from './McpFormBody';
import { SamplingBody } from './SamplingBody';
import { useMcpAnswer } from './useMcpAnswer';

// Built at render time: the page's locale is applied after the modules load.
function stateLabel(state: McpRequestState, sampling: boolean): string {
  switch (state) {
    case 'open':
      return l10n.t('waiting for you');
    case 'accepted':
      return sampling ? l10n.t('ran') : l10n.t('accepted');
    case 'declined':
      return sampling ? l10n.t('rejected') : l10n.t('declined');
    case 'cancelled':
      return l10n.t('cancelled');
    case 'running':
      return l10n.t('running…');
    case 'failed':
      return l10n.t('failed');
    case 'expired':
      return l10n.t('withdrawn or timed out');
  }
}

/**
 * An MCP server's request in the conversation: a form to fill in, a page to open, or a request
 * to run on the person's model. Open, it takes the answer; afterwards it says what became of it.
 */
export function McpRequestCard({ part }: { part: McpRequestPart }) {
  const { request, server, state } = part;
  const sampling = request.kind === 'sampling';
  const title = sampling ? l10n.t('MCP server {0} asks to run a request on your model ({1})', server, request.modelId) : l10n.t('MCP server {0} asks', server);
  return (
    <section className={`mcp-card mcp-card-${state}`} data-testid="mcp-request" data-kind={request.kind} data-state={state} aria-label={title}>
      <header className="mcp-card-title">
        <Icon name={sampling ? 'sparkle' : request.kind === 'url' ? 'link-external' : 'question'} />
        <span className="mcp-card-heading">{title}</span>
        <Badge testId="mcp-request-state">{stateLabel(state, sampling)}</Badge>
      </header>
      {request.kind === 'form' ? <McpFormBody part={part} fields={request.fields} message={request.message} /> : null}
      {request.kind === 'url' ? <UrlBody part={part} message={request.message} url={request.url} /> : null}
      {request.kind === 'sampling' ? <SamplingBody part={part} request={request} /> : null}
      {state === 'failed' && part.error ? (
        <p className="mcp-card-error" role="alert">
          {part.error}
        </p>
      ) : null}
    </section>
  );
}

/** A page the server wants opened (a sign-in, a payment): shown, and opened in the browser only on Open. */
function UrlBody({ part, message, url }: { part: McpRequestPart; message: string; url: string }) {
  const { send, sent, gone } = useMcpAnswer(part.requestId);
  const open = part.state === 'open' && !gone;
  return (
    <>
      <p className="mcp-card-message">{message}</p>
      <code className="mcp-card-url" data-testid="mcp-url">
        {url}
      </code>
      {open ? (
        <>
          <p className="mcp-card-note">{l10n.t('Keel opens this page in your browser only if you click Open.')}</p>
          <AnswerButtons
            accept={{ label: l10n.t('Open'), title: l10n.t('Open the page in your browser and tell the server you did'), run: () => send({ action: 'accept' }) }}
            decline={{ label: l10n.t('Decline'), title: l10n.t('Say no to the server'), run: () => send({ action: 'decline' }) }}
            cancel={() => send({ action: 'cancel' })}
            disabled={sent}
          />
        </>
      ) : null}
      {gone ? <GoneNote /> : null}
    </>
  );
}
