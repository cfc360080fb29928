// The loopback listener that ends a sign-in, over real HTTP on 127.0.0.1.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freeLoopbackPort, waitForRedirect } from '../../../../src/core/mcp/mcpOAuthLoopback';

const base = (port: number) => `http://127.0.0.1:${port}/callback`;

describe('the sign-in redirect listener', () => {
  it('answers the redirect with its state, hands over the code once, and closes the port', async () => {
    const port = await freeLoopbackPort();
    const { code } = await waitForRedirect({ port, state: 's-1', timeoutMs: 5000, server: 'remote' });
    const page = await fetch(`${base(port)}?code=c-1&state=s-1`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('You can close this tab');
    await expect(code).resolves.toBe('c-1');
    await expect(fetch(`${base(port)}?code=c-2&state=s-1`)).rejects.toThrow();
  });

  it('refuses a redirect with another state and goes on waiting for the right one', async () => {
    const port = await freeLoopbackPort();
    const { code } = await waitForRedirect({ port, state: 'mine', timeoutMs: 5000, server: 'remote' });
    const forged = await fetch(`${base(port)}?code=evil&state=theirs`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('state does not match');
    const other = await fetch(`http://127.0.0.1:${port}/elsewhere?code=evil&state=mine`);
    expect(other.status).toBe(404);
    await fetch(`${base(port)}?code=good&state=mine`);
    await expect(code).resolves.toBe('good');
  });

  it('takes a redirect that comes through a proxy prefix (code-server /proxy/<port>/callback)', async () => {
    const port = await freeLoopbackPort();
    const { code } = await waitForRedirect({ port, state: 's', timeoutMs: 5000, server: 'remote' });
    await fetch(`http://127.0.0.1:${port}/proxy/${port}/callback?code=c&state=s`);
    await expect(code).resolves.toBe('c');
  });

  it('ends with the authorization server\'s error when the person declined', async () => {
    const port = await freeLoopbackPort();
    const { code } = await waitForRedirect({ port, state: 's', timeoutMs: 5000, server: 'remote' });
    const refused = expect(code).rejects.toThrow('the authorization server refused the sign-in: access_denied (the user said no)');
    const page = await fetch(`${base(port)}?error=access_denied&error_description=the+user+said+no&state=s`);
    expect(page.status).toBe(400);
    await refused;
  });

  it('gives up after its timeout with an error that says what to do', async () => {
    const port = await freeLoopbackPort();
    const { code } = await waitForRedirect({ port, state: 's', timeoutMs: 50, server: 'remote' });
    await expect(code).rejects.toThrow('no sign-in arrived within 1 s; sign in again when you are ready');
    await expect(fetch(`${base(port)}?code=late&state=s`)).rejects.toThrow();
  });

  it('says which port it could not listen on', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(waitForRedirect({ port, state: 's', timeoutMs: 5000, server: 'remote' })).rejects.toThrow(`cannot listen for the sign-in redirect on 127.0.0.1:${port} (EADDRINUSE)`);
      // A stored client's port that is taken now gives way to a free one.
      expect(await freeLoopbackPort(port)).not.toBe(port);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
