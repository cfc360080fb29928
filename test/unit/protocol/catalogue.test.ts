import { describe, expect, it } from 'vitest';
import { hostSide, webviewSide } from '../../../src/protocol/catalogue';
import { MAX_TOOL_OUTPUT_CHARS } from '../../../src/protocol/limits';
import { sampleSnapshot } from './busHarness';

const send = hostSide.methods['session.send'].params;

describe('message catalogue', () => {
  it('has no method or event name on both sides (the helper types rely on it)', () => {
    const hostNames = [...Object.keys(hostSide.methods), ...Object.keys(hostSide.events)];
    const webviewNames = [...Object.keys(webviewSide.methods), ...Object.keys(webviewSide.events)];
    expect(hostNames.filter((name) => webviewNames.includes(name))).toEqual([]);
  });

  it('session.send needs text or an image, and refuses unknown keys', () => {
    expect(send.safeParse({ text: 'fix the test' }).success).toBe(true);
    expect(send.safeParse({ text: '  ' }).success).toBe(false);
    expect(send.safeParse({ text: '', images: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }] }).success).toBe(true);
    expect(send.safeParse({ text: 'hi', autoApprove: true }).success).toBe(false);
  });

  it('session.send refuses image data that is not base64 or of another type', () => {
    expect(send.safeParse({ text: 'x', images: [{ mediaType: 'image/png', data: 'not base64!' }] }).success).toBe(false);
    expect(send.safeParse({ text: 'x', images: [{ mediaType: 'image/svg+xml', data: 'PHN2Zz4=' }] }).success).toBe(false);
  });

  it('link.open accepts only http(s) URLs', () => {
    const link = hostSide.methods['link.open'].params;
    expect(link.safeParse({ url: 'https://example.com/docs' }).success).toBe(true);
    for (const url of ['command:workbench.action.openSettings', 'javascript:alert(1)', 'file:///etc/passwd']) {
      expect(link.safeParse({ url }).success, url).toBe(false);
    }
  });

  it('config.set checks each key against its own value type', () => {
    const set = hostSide.methods['config.set'].params;
    expect(set.safeParse({ key: 'approvalMode', value: 'autoEdit' }).success).toBe(true);
    expect(set.safeParse({ key: 'approvalMode', value: 'always' }).success).toBe(false);
    expect(set.safeParse({ key: 'apiKey', value: null }).success).toBe(true);
    expect(set.safeParse({ key: 'baseUrl', value: 'command:evil' }).success).toBe(false);
    expect(set.safeParse({ key: 'mcpServers', value: {} }).success).toBe(false);
  });

  it('accepts a well-formed snapshot and rejects one with an unknown role', () => {
    const snapshot = sampleSnapshot();
    expect(hostSide.events.snapshot.safeParse(snapshot).success).toBe(true);
    const bad = { ...snapshot, messages: [{ ...snapshot.messages[0], role: 'root' }] };
    expect(hostSide.events.snapshot.safeParse(bad).success).toBe(false);
  });

  it('toolResult output is capped', () => {
    const result = (output: string) => ({ toolCallId: 't', name: 'bash', state: 'done', isError: false, output, truncated: false });
    expect(hostSide.events.toolResult.safeParse(result('ok')).success).toBe(true);
    expect(hostSide.events.toolResult.safeParse(result('x'.repeat(MAX_TOOL_OUTPUT_CHARS + 1))).success).toBe(false);
  });

  it('toolApproval carries JSON input only', () => {
    const request = {
      id: 'a',
      toolCallId: 't',
      tool: 'bash',
      category: 'command',
      summary: 'ls',
      input: { command: 'ls', args: ['-la', 1, null] },
      paths: [],
      protected: false,
    };
    expect(webviewSide.methods.toolApproval.params.safeParse(request).success).toBe(true);
    expect(webviewSide.methods.toolApproval.params.safeParse({ ...request, input: { when: undefined } }).success).toBe(false);
    expect(webviewSide.methods.toolApproval.params.safeParse({ ...request, category: 'admin' }).success).toBe(false);
  });
});
