import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientNetwork, UNKNOWN_NETWORK } from '../../src/lib/server/auth/client-network.ts';

/**
 * Limits per network, not per address (docs/decisions/159-public-forms.md): the one function that names
 * the subject of every per-address limit, and a scan that fails when a limit keys on a raw address.
 */

describe('clientNetwork', () => {
  it.each([
    // IPv4: the address itself.
    ['203.0.113.10', '203.0.113.10'],
    [' 203.0.113.10 ', '203.0.113.10'],
    // IPv6: the first 64 bits, whatever the spelling.
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:0:0:1::5', '2001:db8:0:0::/64'],
    ['2001:db8::1:0:0:9', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['2001:db8:1:2::203.0.113.5', '2001:db8:1:2::/64'],
    // IPv4-mapped IPv6: the IPv4 address.
    ['::ffff:203.0.113.10', '203.0.113.10'],
    ['::FFFF:203.0.113.10', '203.0.113.10'],
    ['::ffff:cb00:710a', '203.0.113.10'],
    ['0:0:0:0:0:ffff:203.0.113.10', '203.0.113.10'],
    ['0000:0000:0000:0000:0000:ffff:cb00:710a', '203.0.113.10'],
  ])('%s -> %s', (ip, network) => {
    expect(clientNetwork(ip)).toBe(network);
  });

  it('two addresses in one /64 share a network; neighbouring /64s do not', () => {
    const a = clientNetwork('2001:db8:aa:1::1');
    expect(clientNetwork('2001:db8:aa:1:dead:beef:cafe:1')).toBe(a);
    expect(clientNetwork('2001:0DB8:00AA:0001:0:0:0:ffff')).toBe(a);
    expect(clientNetwork('2001:db8:aa:2::1')).not.toBe(a);
    expect(clientNetwork('2001:db8:aa:0::1')).not.toBe(a);
    expect(clientNetwork('2001:db9:aa:1::1')).not.toBe(a);
  });

  it('IPv4 stays per address, and a mapped address is its IPv4 address, not a /64', () => {
    expect(clientNetwork('203.0.113.10')).not.toBe(clientNetwork('203.0.113.11'));
    expect(clientNetwork('::ffff:203.0.113.10')).toBe(clientNetwork('203.0.113.10'));
    expect(clientNetwork('::ffff:203.0.113.10')).not.toBe(clientNetwork('::ffff:203.0.113.11'));
  });

  it.each([
    [''],
    ['unknown'],
    ['not an address'],
    ['1.2.3'],
    ['256.1.1.1'],
    ['01.2.3.4'],
    ['2001:db8::1::2'],
    ['2001:db8:1:2:3:4:5:6:7'],
    ['2001:db8:g::1'],
    ['::ffff:1.2.3.4.5'],
    ['1.2.3.4/24'],
    ['[2001:db8::1]'],
    ['2001:db8::1\n1.2.3.4'],
    ['x'.repeat(100_000)],
  ])('bad input %j is the one shared "unknown" subject, never an error', (ip) => {
    expect(clientNetwork(ip)).toBe(UNKNOWN_NETWORK);
  });

  it('null and undefined are "unknown" too', () => {
    expect(clientNetwork(null)).toBe(UNKNOWN_NETWORK);
    expect(clientNetwork(undefined)).toBe(UNKNOWN_NETWORK);
  });

  it('any string: never throws, and the answer is an IPv4 address, a /64 or "unknown"', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.ipV4(), fc.ipV6(), fc.ipV4Extended()), (s) => {
        expect(clientNetwork(s)).toMatch(/^(\d{1,3}(\.\d{1,3}){3}|([0-9a-f]{1,4}:){4}:\/64|unknown)$/);
      }),
    );
  });

  it('every IPv6 address fast-check makes is counted with the other addresses of its /64', () => {
    // Another interface id in the same /64 (a mapped IPv4 address, not a /64, stands for itself).
    const sibling = (n: string, last: number) =>
      n.endsWith('/64') ? `${n.slice(0, -5)}::${last.toString(16)}` : n;
    fc.assert(
      fc.property(fc.ipV6(), fc.integer({ min: 0, max: 0xffff }), (ip, last) => {
        const n = clientNetwork(ip);
        expect(n).not.toBe(UNKNOWN_NETWORK);
        expect(clientNetwork(sibling(n, last))).toBe(n);
      }),
    );
  });
});

// ---------------------------------------------------------------------------
// The structural half: no limit keys on a raw address.

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sources(path)));
    else if (/\.(ts|tsx|mts)$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** The first two arguments of every call of `name(` in `text` (split on top-level commas). */
function callArgs(text: string, name: RegExp): { scope: string; subject: string }[] {
  const out: { scope: string; subject: string }[] = [];
  for (const m of text.matchAll(name)) {
    let depth = 0;
    const args: string[] = [''];
    for (const ch of text.slice(m.index + m[0].length)) {
      if (ch === '(' || ch === '[' || ch === '{') depth++;
      if (ch === ')' || ch === ']' || ch === '}') {
        if (depth === 0) break;
        depth--;
      }
      if (ch === ',' && depth === 0) args.push('');
      else args[args.length - 1] += ch;
    }
    out.push({ scope: args[0]!.trim(), subject: (args[1] ?? '').trim() });
  }
  return out;
}

/** Every per-client limit, by its counter scope (a new one fails here until it is listed, and tested). */
const CLIENT_SCOPES = [
  "'2fa-ip'",
  "'forgot-ip'",
  "'form-post-ip'",
  "'login-ip'",
  "'supporter-code-ip'",
  "'supporter-code-verify-ip'",
  "'supporter-link-ip'",
  'IP_SCOPE',
];

describe('every per-address limit counts networks', () => {
  it('no plain reserveAttempt(s) call keys on an address; the per-client ones are the listed scopes', async () => {
    const files = [...(await sources('src')), ...(await sources('netlify'))];
    const raw: string[] = [];
    const client: string[] = [];
    for (const f of files) {
      const path = relative('.', f).replaceAll('\\', '/');
      const text = await readFile(f, 'utf8');
      for (const { scope, subject } of callArgs(text, /\breserveAttempts?\(/g)) {
        // The wrappers in rate-limit.ts pass clientNetwork(ip): that is the one allowed use.
        const addressLike = /\bip\b|Ip\b|address|-ip'|IP_SCOPE/i.test(`${scope} ${subject}`);
        if (addressLike && !subject.startsWith('clientNetwork(')) raw.push(`${path}: ${scope}, ${subject}`);
      }
      for (const { scope } of callArgs(text, /\breserveClientAttempts?\(/g)) {
        if (!path.endsWith('auth/rate-limit.ts')) client.push(scope);
      }
    }
    expect(raw).toEqual([]);
    expect([...new Set(client)].sort()).toEqual(CLIENT_SCOPES);
  });
});
