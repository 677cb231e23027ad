import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import {
  CONTACT_SUBJECT_LABELS,
  type ContactMessageSchema,
  type VolunteerSignupSchema,
} from '../../schemas/forms.ts';
import {
  StoredContactSchema,
  StoredVolunteerSchema,
  type StoredContact,
  type StoredVolunteer,
} from '../../schemas/inbox.ts';
import { sendEmail } from '../adapters/email.ts';
import { env } from '../env.ts';
import { ConflictError, hashed, key, kv, update } from '../store.ts';
import type { RequestMeta } from './text-signups.ts';

/**
 * Volunteer sign-ups and contact messages: stored first, then emailed to the
 * campaign inbox. An email failure never loses the record; it is marked
 * `emailStatus: 'failed'` for staff (docs/decisions.md, "Email after store").
 */

export type VolunteerSignup = z.output<typeof VolunteerSignupSchema>;
export type ContactMessage = z.output<typeof ContactMessageSchema>;

export const volunteerKey = (email: string) => key('volunteer', hashed(email));

/** Email subjects are one line: control characters (a typed newline) become spaces. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 200);

/** Time-ordered, unique: `<iso time>-<random>`. */
function timeOrderedId(now: Date): string {
  return `${now.toISOString()}-${randomBytes(6).toString('hex')}`;
}

function volunteerEmail(v: StoredVolunteer, repeat: boolean) {
  return {
    to: env().CAMPAIGN_INBOX_EMAIL,
    replyTo: v.email,
    subject: oneLine(
      `${repeat ? 'Updated volunteer sign-up' : 'New volunteer'}: ${v.firstName} ${v.lastName}`,
    ),
    text: [
      `Name: ${v.firstName} ${v.lastName}`,
      `Email: ${v.email}`,
      `Phone: ${v.phone}`,
      `Address: ${[v.address1, v.address2].filter(Boolean).join(', ')}`,
      `City/State/ZIP: ${v.city}, ${v.state} ${v.zip}`.trimEnd(),
      `Interests: ${v.interests.join(', ') || '(none given)'}`,
      `Signed up: ${v.createdAt}${repeat ? ` (details updated ${v.updatedAt})` : ''}`,
    ].join('\n'),
  };
}

async function emailAndMark<T extends { emailStatus: string; emailError: string | null }>(
  storeName: 'volunteers' | 'contacts',
  k: string,
  message: Parameters<typeof sendEmail>[0],
): Promise<void> {
  let patch: { emailStatus: 'sent' | 'failed'; emailError: string | null };
  try {
    await sendEmail(message);
    patch = { emailStatus: 'sent', emailError: null };
  } catch (err) {
    const error = err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 300) : 'Email failed';
    console.error(`[${storeName}] notification email failed: ${error}`);
    patch = { emailStatus: 'failed', emailError: error };
  }
  await update<T>(kv(storeName), k, (cur) => ({ ...cur, ...patch })).catch((e: unknown) =>
    console.error(`[${storeName}] could not record the email status`, e),
  );
}

/** The fields a person controls: a repeat with the same values is not news. */
function sameDetails(a: VolunteerSignup | StoredVolunteer, b: VolunteerSignup | StoredVolunteer): boolean {
  const pick = (v: VolunteerSignup | StoredVolunteer) =>
    JSON.stringify([
      v.firstName,
      v.lastName,
      v.phone,
      v.address1,
      v.address2,
      v.city,
      v.state,
      v.zip,
      [...v.interests].sort(),
    ]);
  return pick(a) === pick(b);
}

/**
 * One record per email address (key = sha256 of the email, created with
 * onlyIfNew). A later submission from the same email merges into it (newest
 * details win, interests are combined) and answers 200; the campaign is
 * emailed only when something changed, so a double click or a retry storm is
 * one record and one email.
 */
export async function saveVolunteer(
  input: VolunteerSignup,
  meta: RequestMeta,
  now = new Date(),
): Promise<{ created: boolean }> {
  const at = now.toISOString();
  const { captchaResponse: _captcha, ...fields } = input;
  const k = volunteerKey(fields.email);
  const record: StoredVolunteer = StoredVolunteerSchema.parse({
    ...fields,
    id: hashed(fields.email),
    createdAt: at,
    updatedAt: at,
    emailStatus: 'pending',
    emailError: null,
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
  });
  const store = kv('volunteers');
  if (await store.create(k, record)) {
    await emailAndMark('volunteers', k, volunteerEmail(record, false));
    return { created: true };
  }
  // A repeat writes only when the details changed (newest win, interests
  // combined), so identical concurrent submissions never contend.
  for (let attempt = 0; attempt < 10; attempt++) {
    const cur = await store.get<StoredVolunteer>(k);
    if (!cur) return saveVolunteer(input, meta, now);
    const merged = {
      ...fields,
      interests: [...new Set([...cur.value.interests, ...fields.interests])].slice(0, 10),
    };
    if (sameDetails(cur.value, merged as VolunteerSignup)) return { created: false };
    const next = StoredVolunteerSchema.parse({
      ...cur.value,
      ...merged,
      updatedAt: at,
      emailStatus: 'pending',
      emailError: null,
    });
    if (await store.replace(k, next, cur.etag)) {
      await emailAndMark('volunteers', k, volunteerEmail(next, true));
      return { created: false };
    }
    await new Promise((r) => setTimeout(r, Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random())));
  }
  throw new ConflictError('Too many concurrent changes. Please try again.');
}

/** One record per message (`message/<iso time>-<random>`), then the email. */
export async function saveContact(input: ContactMessage, meta: RequestMeta, now = new Date()): Promise<void> {
  const at = now.toISOString();
  const { captcha: _captcha, ...fields } = input;
  const id = timeOrderedId(now);
  const record: StoredContact = StoredContactSchema.parse({
    ...fields,
    id,
    createdAt: at,
    updatedAt: at,
    emailStatus: 'pending',
    emailError: null,
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
  });
  const k = key('message', id);
  if (!(await kv('contacts').create(k, record))) throw new Error('Contact message key collision');
  await emailAndMark('contacts', k, {
    to: env().CAMPAIGN_INBOX_EMAIL,
    replyTo: record.email,
    subject: oneLine(`Contact form (${CONTACT_SUBJECT_LABELS[record.subject]}): ${record.name}`),
    text: [
      `From: ${record.name} <${record.email}>`,
      `Phone: ${record.phone ?? '(not given)'}`,
      `Subject: ${CONTACT_SUBJECT_LABELS[record.subject]}`,
      `Received: ${record.createdAt}`,
      '',
      record.message,
    ].join('\n'),
  });
}
