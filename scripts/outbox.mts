/**
 * Prints the local outbox: the emails and texts that `npm run dev` (local
 * mode, no SendGrid/Twilio configured) stored instead of sending.
 *
 *   npm run outbox                 # everything, oldest first
 *   npm run outbox -- sms          # only texts   (email: only emails)
 *   npm run outbox -- email 5      # the last 5 emails
 *
 * It reads the dev server's Blobs directory (.netlify/blobs-serve, override
 * with OUTBOX_DIR) through the Blobs SDK: it starts its own local Blobs server
 * on that directory (random port, random token) and only lists and reads.
 * Safe while the dev server runs.
 */
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { BlobsServer } from './dev/blobs-listing.mts';
import { getStore, setEnvironmentContext } from '@netlify/blobs';

const kind = process.argv[2] === 'sms' || process.argv[2] === 'email' ? process.argv[2] : null;
const limit = Number(process.argv[kind ? 3 : 2] ?? 0) || Infinity;
const directory = resolve(process.env.OUTBOX_DIR ?? '.netlify/blobs-serve');

const sites = await readdir(join(directory, 'entries')).catch(() => [] as string[]);
if (sites.length === 0) {
  console.log(`No local Blobs data under ${directory} yet (start \`npm run dev\` and submit a form).`);
  process.exit(0);
}

const token = randomBytes(16).toString('hex');
const server = new BlobsServer({ directory, token, logger: () => {} });
const { port } = await server.start();
const url = `http://127.0.0.1:${port}`;

interface Entry {
  key: string;
  value: Record<string, unknown>;
}
const entries: Entry[] = [];
for (const siteID of sites) {
  setEnvironmentContext({ siteID, token, edgeURL: url, uncachedEdgeURL: url, apiURL: url });
  const store = getStore({ name: 'outbox', consistency: 'strong' });
  const { blobs } = await store.list({ prefix: kind ? `${kind}/` : undefined });
  for (const b of blobs) {
    // Only messages: the broadcast engine's delivery markers (sms-key/...) are not shown.
    if (!b.key.startsWith('sms/') && !b.key.startsWith('email/')) continue;
    const value = (await store.get(b.key, { type: 'json' })) as Record<string, unknown> | null;
    if (value) entries.push({ key: b.key, value });
  }
}
await server.stop();

const sortKey = (e: { key: string; value: Record<string, unknown> }) =>
  typeof e.value.at === 'string' ? e.value.at : e.key;
entries.sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
const shown = entries.slice(-limit);
if (shown.length === 0) console.log('The outbox is empty.');
for (const { key, value } of shown) {
  const { at, to, subject, text, body, replyTo, from } = value as Record<string, string | undefined>;
  console.log('─'.repeat(72));
  if (key.startsWith('sms/')) {
    console.log(`TEXT  ${at}  to ${to}`);
    console.log(body);
  } else {
    console.log(
      `EMAIL ${at}  to ${to}${replyTo ? `  reply-to ${replyTo}` : ''}${from ? `  from ${from}` : ''}`,
    );
    const headers = value.headers as Record<string, string> | undefined;
    for (const [name, v] of Object.entries(headers ?? {})) console.log(`${name}: ${v}`);
    console.log(`Subject: ${subject}\n`);
    console.log(text);
  }
}
console.log('─'.repeat(72));
console.log(`${shown.length} of ${entries.length} message(s) in ${directory}`);
