import { StoredTextSignupSchema, type StoredTextSignup } from '../../schemas/inbox.ts';
import { key, kv } from '../store.ts';

/**
 * The text list's current state per person (store `signups`, `person/<id>`,
 * id = sha256 of the E.164 phone): who is subscribed and who replied STOP.
 * Its own module so that the text guard (src/lib/server/messaging/text-guard.ts)
 * and the sign-up (text-signups.ts, which sends through the guard) can both read
 * it without an import cycle.
 */

export const personKey = (id: string) => key('person', id);

/** The person's record, read strongly consistent (a STOP recorded a moment ago is seen). */
export async function getPerson(id: string): Promise<StoredTextSignup | null> {
  const r = await kv('signups').get<unknown>(personKey(id));
  if (!r) return null;
  const p = StoredTextSignupSchema.safeParse(r.value);
  return p.success ? p.data : null;
}
