import type { z } from 'zod';
import { EMAIL_CONSENT } from '../../../content/consent.ts';
import { DEFAULT_LANG } from '../../lang.ts';
import type { EmailSubscriptionSchema } from '../../schemas/forms.ts';
import { StoredSubscriberSchema, type StoredSubscriber } from '../../schemas/inbox.ts';
import { hashed, key, kv } from '../store.ts';
import type { RequestMeta } from './text-signups.ts';

/**
 * The blog's newsletter box: one record per address (normalised by the schema:
 * trimmed, lowercased), created with onlyIfNew, so a repeat or 50 concurrent
 * identical subscriptions are one record. Kept with its time, the page it came
 * from and the consent wording the box showed (src/content/consent.ts).
 */
export type EmailSubscription = z.output<typeof EmailSubscriptionSchema>;

/** The newsletter box's thank-you (toast title; the outcome page says the same). */
export const SUBSCRIBED_OK = 'Thank you for subscribing!';

export const subscriberKey = (email: string) => key('subscriber', hashed(email));

export async function subscribeEmail(
  input: EmailSubscription,
  meta: RequestMeta,
  now = new Date(),
): Promise<{ created: boolean }> {
  const lang = input.lang ?? DEFAULT_LANG;
  const record: StoredSubscriber = StoredSubscriberSchema.parse({
    id: hashed(input.email),
    email: input.email,
    sourcePage: input.sourcePage ?? null,
    consentText: EMAIL_CONSENT[lang].text,
    consentVersion: EMAIL_CONSENT[lang].version,
    lang,
    createdAt: now.toISOString(),
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
  });
  return { created: await kv('subscribers').create(subscriberKey(input.email), record) };
}
