import { describe, expect, it } from 'vitest';
import { KeelError } from '../../../src/core/errors';
import { redactSecrets, runFailure, thrownError } from '../../../src/chat/runs/runErrors';

describe('errors for the view', () => {
  it('maps HTTP failures to codes the view can act on, without keys', () => {
    expect(runFailure({ message: 'Incorrect API key provided: sk-abcdefghijklmnopqrstuvwx', statusCode: 401 })).toMatchObject({ code: 'auth_failed', retryable: false });
    expect(runFailure({ message: 'Incorrect API key provided: sk-abcdefghijklmnopqrstuvwx', statusCode: 401 }).message).not.toContain('sk-abcdef');
    expect(runFailure({ message: 'slow down', statusCode: 429 })).toMatchObject({ code: 'rate_limited', retryable: true });
    expect(runFailure({ message: "This model's maximum context length is 8192 tokens", statusCode: 400 }).code).toBe('context_too_long');
    expect(runFailure({ message: 'fetch failed' })).toMatchObject({ code: 'model_unreachable', retryable: true });
    expect(thrownError(new KeelError('model_not_configured', 'No model'))).toMatchObject({ code: 'model_not_configured', message: 'No model' });
    expect(thrownError(new KeelError('api_key_missing', 'No key')).code).toBe('model_not_configured');
    expect(thrownError(new KeelError('config', 'bad')).code).toBe('invalid_config');
    expect(redactSecrets('key my-secret-value here', ['my-secret-value'])).toBe('key [redacted] here');
  });

  it('says plainly that a conversation too long even after trimming lost nothing, whatever status the server used', () => {
    const error = runFailure({ message: 'prompt is too long (The model\'s answer: input exceeds the context window)', statusCode: 500, code: 'context_too_long' });
    expect(error).toMatchObject({ code: 'context_too_long', retryable: false });
    expect(error.message).toContain('input exceeds the context window');
    expect(error.message).toContain('Nothing is lost');
    expect(error.message).toContain('Start a new chat');
  });
});
