import { useState } from 'react';
import type { McpAnswer } from '../../../src/protocol/mcpRequests';
import { useBridge } from '../../bridge/bridgeContext';

/**
 * Sends the person's answer to a request card once: `sent` while it goes (the buttons wait),
 * `gone` when the host said the request was no longer open (withdrawn or timed out meanwhile).
 */
export function useMcpAnswer(requestId: string): { send(answer: McpAnswer): void; sent: boolean; gone: boolean } {
  const bridge = useBridge();
  const [sent, setSent] = useState(false);
  const [gone, setGone] = useState(false);
  const send = (answer: McpAnswer): void => {
    if (sent) return;
    setSent(true);
    void bridge.call('mcp.answer', { requestId, answer }).then((result) => {
      // A failed request was reported by the bridge; the card can be answered again.
      if (!result) setSent(false);
      else if (!result.settled) setGone(true);
    });
  };
  return { send, sent, gone };
}
