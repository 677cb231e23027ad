import { gunzipSync } from 'node:zlib';
import { STORE_NAMES } from '../../src/lib/server/storage/kv.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';

/**
 * Every store, every key and every value (JSON, or bytes unzipped): where any of `needles` appears. The
 * forget-me tests walk it to prove a person leaves no trace (docs/decisions/149-people.md).
 */
export async function traces(needles: string[]): Promise<string[]> {
  const lower = needles.map((n) => n.toLowerCase());
  const found: string[] = [];
  for (const name of STORE_NAMES) {
    const s = kv(name);
    for await (const page of s.keys()) {
      for (const k of page) {
        let text = k;
        const json = await s.get<unknown>(k).catch(() => null);
        if (json) text += JSON.stringify(json.value);
        else {
          const bytes = await s.getBytes(k);
          if (bytes) {
            const buf = Buffer.from(bytes.data);
            text +=
              buf[0] === 0x1f && buf[1] === 0x8b ? gunzipSync(buf).toString('utf8') : buf.toString('utf8');
          }
        }
        const t = text.toLowerCase();
        for (const n of lower) if (t.includes(n)) found.push(`${name}:${k} has ${n}`);
      }
    }
  }
  return found;
}
