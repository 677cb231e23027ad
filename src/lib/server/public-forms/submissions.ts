import { countActivity } from '../activity/counts.ts';
import { createHash, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { contactSubjectLabels } from '../../../content/contact.ts';
import { type ContactMessageSchema, type VolunteerSignupSchema } from '../../schemas/forms.ts';
import {
  StoredContactSchema,
  StoredVolunteerSchema,
  type StoredContact,
  type StoredVolunteer,
} from '../../schemas/inbox.ts';
import { LANG_NAMES_FOR_STAFF } from '../../lang-names.ts';
import { staffShown } from '../../merge-fields.ts';
import { sendEmail } from '../adapters/email.ts';
import { env } from '../env.ts';
import { suppressionOf } from '../people/suppressions.ts';
import { update } from '../storage/compare-and-set.ts';
import { hashed, key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { noteSummary, summarize } from '../inbox/summary-shapes.ts';
import type { RequestMeta } from '../texting/text-signups.ts';
import { formatCampaignDateTime } from '../../campaign-time.ts';
import { linkPerson } from '../people/link.ts';

/**
 * Volunteer sign-ups and contact messages: stored first, then emailed to the
 * campaign inbox. An email failure never loses the record; it is marked
 * `emailStatus: 'failed'` for staff (docs/decisions/159-public-forms.md). Their endpoints accept them
 * through the steps every public form goes through (accept.ts), which end in saveVolunteer and saveContact. The email is plain text and
 * shows what was typed through `staffShown` (src/lib/merge-fields.ts): every word, but no live link
 * (docs/decisions/075-names-are-not-a-channel.md).
 */

export type VolunteerSignup = z.output<typeof VolunteerSignupSchema>;
export type ContactMessage = z.output<typeof ContactMessageSchema>;

/** Every submission from one email lives under this prefix (the staff inbox groups them). */
export const volunteerPrefix = (email: string) => key('volunteer', hashed(email));

/**
 * What a person typed, canonical: two identical submissions have one digest.
 * The form's language is not part of it: the same details sent from the
 * Spanish page after the English one are one volunteer, not two.
 */
function detailsDigest(v: Omit<VolunteerSignup, 'captchaResponse'>): string {
  const canonical = JSON.stringify([
    v.email,
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
  return createHash('sha256').update(canonical).digest('hex');
}

/** Email subjects are one line: control characters (a typed newline) become spaces. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 200);

/** Time-ordered, unique: `<iso time>-<random>`. */
function timeOrderedId(now: Date): string {
  return `${now.toISOString()}-${randomBytes(6).toString('hex')}`;
}

function volunteerEmail(v: StoredVolunteer, earlier: number) {
  const name = staffShown(`${v.firstName} ${v.lastName}`);
  const address = staffShown([v.address1, v.address2].filter(Boolean).join(', '));
  return {
    to: env().CAMPAIGN_INBOX_EMAIL,
    replyTo: v.email,
    subject: oneLine(
      `${earlier > 0 ? `Volunteer sign-up (${earlier + 1} from this email)` : 'New volunteer'}: ${name}`,
    ),
    text: [
      `Name: ${name}`,
      `Email: ${v.email}`,
      `Phone: ${v.phone}`,
      `Address: ${address}`,
      `City/State/ZIP: ${staffShown(v.city)}, ${v.state} ${v.zip}`.trimEnd(),
      `Interests: ${staffShown(v.interests.join(', ')) || '(none given)'}`,
      `Language: ${LANG_NAMES_FOR_STAFF[v.lang]}`,
      `Signed up: ${formatCampaignDateTime(v.createdAt)} (New Orleans time)`,
      ...(earlier > 0
        ? [
            '',
            `This email has ${earlier} earlier sign-up${earlier > 1 ? 's' : ''} with other details; each is kept as sent (see the dashboard Inbox).`,
          ]
        : []),
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

/**
 * Every volunteer submission is its own record, `volunteer/<sha256 email>/<sha256 details>`,
 * created with onlyIfNew: a submission never overwrites a stored person, even
 * one with the same email (anyone can type an email; docs/decisions/161-content-and-editor.md). Staff see all
 * submissions of an email side by side in the inbox. An identical resubmission
 * (a double click, a retry) is the same key: no second record, no second email,
 * answered 200; so 50 identical concurrent submissions are one record.
 */
export async function saveVolunteer(
  input: VolunteerSignup,
  meta: RequestMeta,
  now = new Date(),
): Promise<{ created: boolean }> {
  const { key: k, record } = volunteerRecord(input, meta, now);
  const store = kv('volunteers');
  if (!(await store.create(k, record))) return { created: false };
  // The address's suppression, read after the record: a suppression recorded meanwhile is seen here or lists it.
  await noteSummary('volunteers', summarize.volunteers(record, k, await suppressionOf(record.email)));
  const name = `${record.firstName} ${record.lastName}`;
  await linkPerson({ source: 'volunteer', store: 'volunteers', key: k, ...record, name, at: now });
  await countActivity({
    kind: 'signup.volunteer',
    id: record.id,
    at: record.createdAt,
    source: 'page:volunteer',
  });
  let earlier = 0;
  for await (const page of store.keys(volunteerPrefix(record.email))) earlier += page.length;
  await emailAndMark('volunteers', k, volunteerEmail(record, Math.max(0, earlier - 1)));
  return { created: true };
}

/** The record a volunteer submission is stored as, under its key, before its email (the scale seed builds the same). */
export function volunteerRecord(
  input: VolunteerSignup,
  meta: RequestMeta,
  now: Date,
): { key: string; record: StoredVolunteer } {
  const at = now.toISOString();
  const { captchaResponse: _captcha, ...fields } = input;
  const digest = detailsDigest(fields);
  const record: StoredVolunteer = StoredVolunteerSchema.parse({
    ...fields,
    id: `${hashed(fields.email).slice(0, 32)}-${digest.slice(0, 32)}`,
    createdAt: at,
    updatedAt: at,
    emailStatus: 'pending',
    emailError: null,
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
  });
  return { key: key('volunteer', hashed(fields.email), digest), record };
}

/** The record a contact message is stored as, under its key, before its email (the scale seed builds the same). */
export function contactRecord(
  input: ContactMessage,
  meta: RequestMeta,
  now: Date,
): { key: string; record: StoredContact } {
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
  return { key: key('message', id), record };
}

/** One record per message (`message/<iso time>-<random>`), then the email. */
export async function saveContact(input: ContactMessage, meta: RequestMeta, now = new Date()): Promise<void> {
  const { key: k, record } = contactRecord(input, meta, now);
  if (!(await kv('contacts').create(k, record))) throw new Error('Contact message key collision');
  await noteSummary('contacts', summarize.contacts(record, k));
  await linkPerson({ source: 'contact', store: 'contacts', key: k, ...record, at: now });
  await emailAndMark('contacts', k, {
    to: env().CAMPAIGN_INBOX_EMAIL,
    replyTo: record.email,
    subject: oneLine(`Contact form (${contactSubjectLabels[record.subject]}): ${staffShown(record.name)}`),
    text: [
      `From: ${staffShown(record.name)} <${record.email}>`,
      `Phone: ${record.phone ?? '(not given)'}`,
      `Subject: ${contactSubjectLabels[record.subject]}`,
      `Language: ${LANG_NAMES_FOR_STAFF[record.lang]}`,
      `Received: ${formatCampaignDateTime(record.createdAt)} (New Orleans time)`,
      '',
      staffShown(record.message),
    ].join('\n'),
  });
}
