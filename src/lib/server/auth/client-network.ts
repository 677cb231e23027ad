import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network a client's address stands for, the subject of every per-address
 * limit (docs/decisions/159-public-forms.md). One machine is routinely
 * given a whole IPv6 /64 (SLAAC, privacy addresses, a VPS's /64), so an IPv6
 * address is counted per /64; an IPv4 address stays itself.
 *
 * - IPv4 `1.2.3.4` -> `1.2.3.4`.
 * - IPv6 -> its first 64 bits, written canonically: `2001:DB8:0:0:1::5`, `2001:db8::1:0:0:9` and
 *   `2001:0db8:0000:0000:ffff::` all give `2001:db8:0:0::/64`; a zone (`fe80::1%eth0`) is dropped.
 * - IPv4-mapped IPv6 (`::ffff:1.2.3.4`, `::ffff:102:304`) -> the IPv4 address `1.2.3.4`: a dual-stack
 *   listener reports IPv4 clients that way, and they must share the IPv4 address's counter.
 * - Anything else (empty, `unknown`, not an address) -> `unknown`: one shared counter, so a malformed
 *   value can never mint fresh counters. Never throws.
 *
 * Only for limits: records (consent, audit) keep the address as the platform gave it.
 */
export function clientNetwork(ip: string | null | undefined): string {
  if (typeof ip !== 'string') return UNKNOWN_NETWORK;
  // Bounded work whatever the input: the longest IPv6 text with a zone is well under 100 characters.
  const raw = ip.trim().slice(0, 100);
  if (isIPv4(raw)) return raw;
  const address = raw.replace(/%.*$/, '');
  if (!isIPv6(address)) return UNKNOWN_NETWORK;
  const groups = ipv6Groups(address);
  if (!groups) return UNKNOWN_NETWORK;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The subject of a limit whose client could not be told apart (no address, or not an address). */
export const UNKNOWN_NETWORK = 'unknown';

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 read as two groups). */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (s: string | undefined) => (s ? s.split(':').map((h) => parseInt(h, 16)) : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array<number>(Math.max(0, fill)).fill(0), ...tail];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : null;
}
