import * as l10n from '@vscode/l10n';
import { useState } from 'react';
import type { McpRequest, McpRequestPart } from '../../../src/protocol/mcpRequests';
import { UsageLine } from '../messages/UsageLine';
import { AnswerButtons, GoneNote } from './McpAnswerButtons';
import { useMcpAnswer } from './useMcpAnswer';

type SamplingRequest = Extract<McpRequest, { kind: 'sampling' }>;

/**
 * What a server wants run on the person's model: its system prompt and messages, the last user
 * message editable while the card is open. Run sends it (as edited); Reject refuses it, and the
 * server is told so. Once it ran, what it used is shown (and counted in the conversation's usage).
 */
export function SamplingBody({ part, request }: { part: McpRequestPart; request: SamplingRequest }) {
  const { send, sent, gone } = useMcpAnswer(part.requestId);
  const [text, setText] = useState(request.lastUserText ?? '');
  const open = part.state === 'open' && !gone;
  const lastUser = request.messages.findLastIndex((m) => m.role === 'user');
  const editable = open && request.lastUserText !== undefined;
  return (
    <>
      {request.systemPrompt ? (
        <details className="mcp-sampling-system">
          <summary>{l10n.t('System prompt')}</summary>
          <pre>{request.systemPrompt}</pre>
        </details>
      ) : null}
      <ol className="mcp-sampling-messages">
        {request.messages.map((m, index) => (
          <li key={index} className={`mcp-sampling-message mcp-sampling-${m.role}`}>
            <span className="mcp-sampling-role">{m.role === 'user' ? l10n.t('User') : l10n.t('Assistant')}</span>
            {editable && index === lastUser ? (
              <textarea
                className="mcp-sampling-edit"
                data-testid="mcp-sampling-edit"
                aria-label={l10n.t('The last user message, as it will be sent')}
                value={text}
                rows={Math.min(12, Math.max(3, text.split('\n').length))}
                disabled={sent}
                onChange={(e) => setText(e.target.value)}
              />
            ) : (
              <pre>{m.text}</pre>
            )}
          </li>
        ))}
      </ol>
      {open ? (
        <AnswerButtons
          accept={{ label: l10n.t('Run'), title: l10n.t('Run this request on {0}', request.modelId), run: () => send(editable ? { action: 'accept', text } : { action: 'accept' }) }}
          decline={{ label: l10n.t('Reject'), title: l10n.t('Do not run it; the server is told you refused'), run: () => send({ action: 'decline' }) }}
          disabled={sent}
        />
      ) : null}
      {part.usage ? <UsageLine usage={part.usage} /> : null}
      {gone ? <GoneNote /> : null}
    </>
  );
}
