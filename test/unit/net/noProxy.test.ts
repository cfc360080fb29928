import { describe, expect, it } from 'vitest';
import { bypassesProxy, networkSettingsFromEnv, proxyFor } from '../../../src/core/net/networkSettings';

const direct = (url: string, noProxy: string) => bypassesProxy(new URL(url), noProxy.split(','));

describe('NO_PROXY', () => {
  it('matches a host and its subdomains, with or without a leading dot or *.', () => {
    for (const entry of ['example.com', '.example.com', '*.example.com']) {
      expect(direct('https://example.com/x', entry), entry).toBe(true);
      expect(direct('https://api.example.com/x', entry), entry).toBe(true);
      expect(direct('https://notexample.com/x', entry), entry).toBe(false);
      expect(direct('https://example.com.evil.io/x', entry), entry).toBe(false);
    }
  });

  it('an entry with a port matches only that port (the scheme default when the URL has none)', () => {
    expect(direct('http://10.0.0.5:8080/', '10.0.0.5:8080')).toBe(true);
    expect(direct('http://10.0.0.5:9090/', '10.0.0.5:8080')).toBe(false);
    expect(direct('https://internal.corp/', 'internal.corp:443')).toBe(true);
    expect(direct('http://internal.corp/', 'internal.corp:443')).toBe(false);
    expect(direct('http://[::1]:3000/', '[::1]:3000')).toBe(true);
    expect(direct('http://[::1]:3000/', '::1')).toBe(true);
  });

  it('a CIDR range matches the IP addresses in it, not host names', () => {
    expect(direct('http://10.20.30.40:8000/', '10.0.0.0/8')).toBe(true);
    expect(direct('http://11.0.0.1/', '10.0.0.0/8')).toBe(false);
    expect(direct('http://[fd12::1]/', 'fd00::/8')).toBe(true);
    expect(direct('http://ten.corp/', '10.0.0.0/8')).toBe(false);
  });

  it('* sends everything direct; an empty list nothing', () => {
    expect(direct('https://api.openai.com/v1', '*')).toBe(true);
    expect(bypassesProxy(new URL('https://api.openai.com/v1'), [])).toBe(false);
  });
});

describe('proxy settings from the environment', () => {
  it('HTTPS_PROXY for https targets, HTTP_PROXY for http ones, lowercase spellings first', () => {
    const settings = networkSettingsFromEnv({
      HTTPS_PROXY: 'http://upper:1',
      https_proxy: 'http://lower:2',
      HTTP_PROXY: 'http://plain:3',
      NO_PROXY: 'localhost, .corp ,10.1.1.1',
    });
    expect(proxyFor(new URL('https://api.openai.com'), settings)?.host).toBe('lower:2');
    expect(proxyFor(new URL('http://example.com'), settings)?.host).toBe('plain:3');
    expect(proxyFor(new URL('https://git.corp'), settings)).toBeUndefined();
    expect(settings.noProxy).toEqual(['localhost', '.corp', '10.1.1.1']);
  });

  it('a proxy written without a scheme is an http proxy; no variables, no proxy', () => {
    expect(proxyFor(new URL('https://x.io'), networkSettingsFromEnv({ HTTPS_PROXY: 'proxy.corp:3128' }))?.href).toBe('http://proxy.corp:3128/');
    expect(proxyFor(new URL('https://x.io'), networkSettingsFromEnv({}))).toBeUndefined();
  });
});
