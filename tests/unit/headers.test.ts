import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';
import { SECURITY_HEADERS } from '../../src/lib/server/security-headers.ts';
import { cspDirectives } from '../../src/lib/csp.mjs';

interface HeaderRule {
  for: string;
  values: Record<string, string>;
}
const toml = parse(readFileSync('netlify.toml', 'utf8')) as unknown as { headers: HeaderRule[] };
const rule = (path: string) => toml.headers.find((h) => h.for === path)?.values;

describe('netlify.toml headers (static files)', () => {
  it('carry exactly the shared security header set on every path', () => {
    expect(rule('/*')).toEqual(SECURITY_HEADERS);
  });
  it('HSTS lasts at least a year; nosniff; COOP; a CSP that forbids framing, plugins and <base>', () => {
    expect(
      Number(/max-age=(\d+)/.exec(SECURITY_HEADERS['Strict-Transport-Security'])?.[1]),
    ).toBeGreaterThanOrEqual(31536000);
    expect(SECURITY_HEADERS['X-Content-Type-Options']).toBe('nosniff');
    expect(SECURITY_HEADERS['Cross-Origin-Opener-Policy']).toBe('same-origin');
    expect(SECURITY_HEADERS['Content-Security-Policy']).toMatch(/frame-ancestors 'none'/);
    expect(SECURITY_HEADERS['Content-Security-Policy']).toMatch(/object-src 'none'/);
    expect(SECURITY_HEADERS['Content-Security-Policy']).toMatch(/base-uri 'none'/);
  });
  it('cache fingerprinted build output for a year; everything else is revalidated (Netlify default)', () => {
    expect(rule('/_astro/*')).toEqual({ 'Cache-Control': 'public, max-age=31536000, immutable' });
    // HTML keeps Netlify's default (max-age=0, must-revalidate, ETag). A Cache-Control on "/*"
    // would also reach /_astro/*, so only the immutable rule and no-store rules may set one.
    for (const h of toml.headers) {
      const cc = Object.entries(h.values).find(([k]) => k.toLowerCase() === 'cache-control')?.[1];
      if (cc === undefined) continue;
      expect(h.for === '/_astro/*' || cc === 'no-store', `${h.for}: ${cc}`).toBe(true);
    }
  });
  it('send no Referer from the reset page and never cache the dashboard', () => {
    expect(rule('/reset-password')).toMatchObject({ 'Referrer-Policy': 'no-referrer' });
    expect(rule('/admin')).toMatchObject({ 'Cache-Control': 'no-store' });
  });
});

describe('page Content-Security-Policy (built into every page with Astro script hashes)', () => {
  const directives = (env: Record<string, string | undefined>) => cspDirectives(env).join('; ');
  it('limits frames to the video, captcha and configured donation providers', () => {
    expect(directives({})).toMatch(
      /frame-src https:\/\/www\.youtube-nocookie\.com https:\/\/challenges\.cloudflare\.com(;|$)/,
    );
    expect(directives({ PUBLIC_DONATION_URL: 'https://secure.actblue.com/donate/avery?embed=1' })).toMatch(
      /frame-src [^;]*https:\/\/secure\.actblue\.com/,
    );
  });
  it('keeps the hardening directives and never allows inline or eval script', () => {
    const csp = directives({ PUBLIC_ANALYTICS_URL: 'https://plausible.io/api/event' });
    for (const d of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "default-src 'self'"])
      expect(csp).toContain(d);
    expect(csp).toMatch(/connect-src 'self' https:\/\/challenges\.cloudflare\.com https:\/\/plausible\.io/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    const config = readFileSync('astro.config.mjs', 'utf8');
    expect(/scriptDirective:[^}]*unsafe-inline/.test(config)).toBe(false);
  });
  it('ignores a malformed provider URL instead of widening the policy', () => {
    expect(directives({ PUBLIC_DONATION_URL: 'not a url' })).toMatch(
      /frame-src https:\/\/www\.youtube-nocookie\.com https:\/\/challenges\.cloudflare\.com;/,
    );
  });
});
