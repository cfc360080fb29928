import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { contextOverflowPatterns, isContextOverflow, overflowSize } from '../../../src/core/history/contextOverflow';

function apiError(status: number, message: string, body?: unknown): APICallError {
  return new APICallError({
    message,
    url: 'https://example.test/v1/chat/completions',
    requestBodyValues: {},
    statusCode: status,
    responseBody: body === undefined ? undefined : JSON.stringify(body),
    isRetryable: false,
  });
}

/** One real-world message per known form (provider: message). */
const forms: [string, string][] = [
  ['OpenAI', "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages."],
  ['OpenAI code only', 'Invalid request (context_length_exceeded)'],
  ['OpenAI Responses', 'Your input exceeds the context window of this model. Please adjust your input and try again.'],
  ['Anthropic', 'prompt is too long: 208317 tokens > 200000 maximum'],
  ['Anthropic max_tokens', 'input length and `max_tokens` exceed context limit: 195000 + 8192 > 200000, decrease input length or `max_tokens` and try again'],
  ['Gemini', 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).'],
  ['Gemini short', 'Request payload exceeds the maximum number of tokens allowed'],
  ['DeepSeek', "This model's maximum context length is 65536 tokens. However, you requested 70123 tokens (70123 in the messages, 0 in the completion). Please reduce the length of the messages or completion."],
  ['vLLM', "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion."],
  ['vLLM decoder', 'The decoder prompt (length 9000) is longer than the maximum model length of 8192. Make sure that `max_model_len` is no smaller than the number of text tokens.'],
  ['llama.cpp', 'the request exceeds the available context size, try increasing it'],
  ['llama.cpp type', '{"error":{"code":400,"message":"request (9000 tokens) exceeds","type":"exceed_context_size_error"}}'],
  ['Ollama', 'input length exceeds maximum context length'],
  ['Ollama prompt', 'prompt too long; exceeded max context length by 512 tokens'],
  ['Mistral', 'Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length'],
  ['xAI', "This model's maximum prompt length is 131072 but the request contains 140000 tokens."],
  ['Cohere', 'too many tokens: total number of tokens in the prompt cannot exceed 4081 - received 5000'],
  ['TGI', 'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 `inputs` tokens and 500 `max_new_tokens`'],
  ['Bedrock', 'Input is too long for requested model.'],
  ['LM Studio', 'Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough.'],
  ['OpenRouter', "This endpoint's maximum context length is 32768 tokens. However, you requested about 40000 tokens (39000 of text input, 1000 in the output). Please reduce the length of either one."],
  ['generic', 'Context window exceeded: the conversation has too many tokens.'],
];

describe('isContextOverflow', () => {
  it.each(forms)('%s', (_source, message) => {
    expect(isContextOverflow(apiError(400, message))).toBe(true);
  });

  it('recognizes the message inside the response body or a plain stream error object', () => {
    expect(isContextOverflow(apiError(400, 'Bad Request', { error: { message: 'prompt is too long: 300000 tokens > 200000 maximum' } }))).toBe(true);
    expect(isContextOverflow({ message: "This model's maximum context length is 8192 tokens.", code: 'context_length_exceeded' })).toBe(true);
    expect(isContextOverflow(new Error('stream failed', { cause: apiError(413, 'Request Entity Too Large', { error: 'too many tokens' }) }))).toBe(true);
  });

  it('every pattern in the table is exercised by a known form', () => {
    for (const { source, pattern } of contextOverflowPatterns) {
      expect(forms.some(([, m]) => pattern.test(m)), source).toBe(true);
    }
  });

  it.each([
    ['rate limit on tokens', apiError(429, 'Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 28000, Requested 5000.')],
    ['request too large for TPM', apiError(400, 'Request too large for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Requested 50000.')],
    ['quota', apiError(429, 'You exceeded your current quota, please check your plan and billing details.')],
    ['server error', apiError(500, 'internal error')],
    ['auth', apiError(401, 'Incorrect API key provided')],
    ['network', new TypeError('fetch failed')],
  ])('does not mistake %s for an overflow', (_name, err) => {
    expect(isContextOverflow(err)).toBe(false);
  });
});

describe('overflowSize', () => {
  it.each([
    [forms[0][1], { limit: 128000, actual: 130412 }],
    [forms[3][1], { limit: 200000, actual: 208317 }],
    [forms[5][1], { limit: 1048576, actual: 1200000 }],
    [forms[7][1], { limit: 65536, actual: 70123 }],
    [forms[20][1], { limit: 32768, actual: 40000 }],
  ])('reads the window and the size from %s', (message, expected) => {
    expect(overflowSize(apiError(400, message))).toEqual(expected);
  });

  it('is undefined when the message gives no numbers', () => {
    expect(overflowSize(apiError(400, 'prompt is too long'))).toBeUndefined();
  });
});
