import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { matchRoute } from '../../scripts/dev/function-routes.mts';
import { createContext, socketIp } from '../../scripts/dev/functions-in-process.mts';
import { config as adminNewsConfig } from '../../netlify/functions/admin-news.mts';
import { config as uploadsConfig } from '../../netlify/functions/uploads.mts';

/*
 * The dev server's function routing and context (scripts/dev): the same
 * `config` semantics Netlify applies, and a client IP a visitor cannot forge.
 */
function fakeRequest(headers: Record<string, string>, remoteAddress: string): IncomingMessage {
  const socket = new Socket();
  Object.defineProperty(socket, 'remoteAddress', { value: remoteAddress });
  return { headers, socket, url: '/', method: 'GET' } as unknown as IncomingMessage;
}

describe('dev function routing (config.path, excludedPath, method)', () => {
  it("routes by the functions' own path patterns, with params", () => {
    expect(matchRoute(adminNewsConfig, '/api/admin/news')).toEqual({});
    expect(matchRoute(adminNewsConfig, '/api/admin/news/42')).toEqual({ id: '42' });
    expect(matchRoute(adminNewsConfig, '/api/admin/news/42/')).toEqual({ id: '42' });
    expect(matchRoute(adminNewsConfig, '/api/admin/newsletter')).toBeNull();
    expect(matchRoute(uploadsConfig, '/api/uploads/abc.png')).toEqual({ name: 'abc.png' });
  });

  it('honours excludedPath and method like the platform', () => {
    const cfg = { path: '/api/x/*', excludedPath: '/api/x/private/*', method: ['GET', 'POST'] };
    expect(matchRoute(cfg, '/api/x/a', 'GET')).toEqual({ '0': 'a' });
    expect(matchRoute(cfg, '/api/x/private/a', 'GET')).toBeNull();
    expect(matchRoute(cfg, '/api/x/a', 'DELETE')).toBeNull();
  });
});

describe('dev function context', () => {
  it('takes the client IP from the connection, never from X-Forwarded-For', () => {
    const req = fakeRequest(
      { 'x-forwarded-for': '203.0.113.99', 'x-real-ip': '203.0.113.98' },
      '::ffff:127.0.0.1',
    );
    expect(socketIp(req)).toBe('127.0.0.1');
    const { context } = createContext(req, new URL('http://localhost/api/x'), { id: '7' });
    expect(context.ip).toBe('127.0.0.1');
    expect(context.params).toEqual({ id: '7' });
  });

  it('reads cookies from the request and collects the ones a function sets', () => {
    const req = fakeRequest({ cookie: 'a=1; session=abc' }, '127.0.0.1');
    const { context, setCookies } = createContext(req, new URL('http://localhost/api/x'), {});
    expect(context.cookies.get('session')).toBe('abc');
    context.cookies.set({ name: 'b', value: '2' });
    context.cookies.delete('a');
    expect(setCookies).toEqual(['b=2; Path=/', 'a=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT']);
  });

  it('runs waitUntil work and reports a failure instead of losing it', async () => {
    const req = fakeRequest({}, '127.0.0.1');
    const { context, settled } = createContext(req, new URL('http://localhost/api/x'), {});
    let done = false;
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const failure = new Error('late work failed');
      context.waitUntil(Promise.resolve().then(() => (done = true)));
      context.waitUntil(Promise.reject(failure));
      // Settling does not throw (the response was already sent), and the failure is in the log.
      await expect(settled()).resolves.toBeDefined();
      expect(done).toBe(true);
      expect(reported).toHaveBeenCalledTimes(1);
      expect(reported).toHaveBeenCalledWith('[functions] waitUntil task failed', failure);
    } finally {
      reported.mockRestore();
    }
  });
});
