import { randomBytes } from 'node:crypto';
import { env, isLocalMode, ConfigError } from '../env.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { budgets } from '../time-budgets.ts';

export interface EmailAttachment {
  filename: string;
  /** MIME type, e.g. text/calendar. */
  type: string;
  /** The file's text (sent base64-encoded). */
  content: string;
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
  attachments?: EmailAttachment[];
  /** An HTML part beside the text (bulk email: src/lib/server/messaging/email-guard.ts). */
  html?: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
  /** Echoed back by SendGrid's Event Webhook with each event (the broadcast delivery it belongs to). */
  customArgs?: Record<string, string>;
}

export class EmailSendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmailSendError';
  }
}

/**
 * Sends an email through SendGrid's v3 HTTP API when SENDGRID_API_KEY is set.
 * Unconfigured in local mode, the message goes to the Blobs outbox
 * (store "outbox", keys "email/...") and a log line says so; `npm run outbox`
 * prints it. Unconfigured in production is a configuration error.
 */
export async function sendEmail(msg: EmailMessage): Promise<{ id: string; via: 'sendgrid' | 'outbox' }> {
  const { SENDGRID_API_KEY, SENDGRID_API_URL, EMAIL_FROM } = env();
  if (!SENDGRID_API_KEY) {
    if (!isLocalMode()) throw new ConfigError('SENDGRID_API_KEY is not set');
    const id = `${new Date().toISOString()}-${randomBytes(4).toString('hex')}`;
    await kv('outbox').put(key('email', id.replace(/[^A-Za-z0-9._-]/g, '-')), {
      ...msg,
      from: EMAIL_FROM,
      at: new Date().toISOString(),
    });
    console.info(
      `[email:outbox] to=${msg.to} subject=${JSON.stringify(msg.subject)} (local mode: stored in the Blobs outbox)`,
    );
    return { id, via: 'outbox' };
  }
  const res = await fetch(new URL('/v3/mail/send', SENDGRID_API_URL), {
    method: 'POST',
    headers: { Authorization: `Bearer ${SENDGRID_API_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      personalizations: [{ to: [{ email: msg.to }] }],
      from: { email: EMAIL_FROM },
      ...(msg.replyTo ? { reply_to: { email: msg.replyTo } } : {}),
      subject: msg.subject,
      // SendGrid requires text/plain before text/html.
      content: [
        { type: 'text/plain', value: msg.text },
        ...(msg.html ? [{ type: 'text/html', value: msg.html }] : []),
      ],
      ...(msg.headers ? { headers: msg.headers } : {}),
      ...(msg.customArgs ? { custom_args: msg.customArgs } : {}),
      ...(msg.attachments?.length
        ? {
            attachments: msg.attachments.map((a) => ({
              content: Buffer.from(a.content, 'utf8').toString('base64'),
              filename: a.filename,
              type: a.type,
              disposition: 'attachment',
            })),
          }
        : {}),
    }),
    signal: AbortSignal.timeout(budgets().emailMs),
  }).catch((err: unknown) => {
    throw new EmailSendError(`SendGrid unreachable: ${(err as Error).name}`);
  });
  // SendGrid answers 202 Accepted; the provider's body is never passed on.
  if (res.status !== 202 && res.status !== 200) throw new EmailSendError(`SendGrid answered ${res.status}`);
  return { id: res.headers.get('x-message-id') ?? '', via: 'sendgrid' };
}
