import { bridgeKey, lookupKey, normalEmail, normalPhone, personKey } from './keys.ts';
import type { Lookup } from './link.ts';
import {
  addTimeline,
  effective,
  getPerson,
  notePerson,
  people,
  retries,
  type Channel,
  type ChannelState,
  type Person,
} from './person.ts';

/**
 * One consent state per channel per person, from one ledger (docs/decisions/149-people.md): the person's
 * `consent` timeline entries, folded into `own` (this person's addresses) and `consent` (what every sending path
 * reads: the latest of its own and of the people merged into it), written with each entry.
 */

export interface ConsentAnswer {
  /** The person the address belongs to (null: no person has it). */
  personId: string | null;
  state: ChannelState | null;
  revoked: boolean;
}

const addressKind = (channel: Channel) => (channel === 'email' ? 'email' : 'phone');
const normal = (channel: Channel, address: string) =>
  channel === 'email' ? normalEmail(address) : normalPhone(address);

async function personIdOf(channel: Channel, address: string): Promise<string | null> {
  const a = normal(channel, address);
  if (!a) return null;
  const r = await people().get<Lookup>(lookupKey(addressKind(channel), a));
  return r?.value.id ?? null;
}

/** The person an email list's sha256 key belongs to (the bridge), or null. */
export async function personIdByEmailHash(emailSha256: string): Promise<string | null> {
  if (!/^[a-f0-9]{64}$/.test(emailSha256)) return null;
  return (await people().get<{ id: string }>(bridgeKey(emailSha256)))?.value.id ?? null;
}

/** The person whose state decides: the one merged into, else the person itself. */
async function deciding(id: string): Promise<Person | null> {
  const p = await getPerson(id);
  if (!p) return null;
  if (!p.value.mergedInto) return p.value;
  return (await getPerson(p.value.mergedInto))?.value ?? p.value;
}

/**
 * THE one function every sending path asks (the text guard, the bulk email guard): may this address be sent to on
 * this channel, as far as its person's consent goes. At most three reads: the lookup, the person, the person it
 * was merged into.
 */
export async function consentFor(channel: Channel, address: string): Promise<ConsentAnswer> {
  const id = await personIdOf(channel, address);
  if (!id) return { personId: null, state: null, revoked: false };
  const p = await deciding(id);
  const state = p?.consent[channel] ?? null;
  return { personId: p?.id ?? id, state, revoked: state?.state === 'revoked' };
}

export interface ConsentChange {
  channel: Channel;
  action: 'revoke' | 'opt_in';
  /** What recorded it: 'stop_keyword', 'carrier_opt_out', 'unsubscribe', 'bounced', 'spam_reported', 'staff', 'start_keyword'. */
  via: string;
  at: Date;
  /** An opt-in's exact wording (required: a new opt-in after a revocation needs fresh, recorded consent). */
  wording?: string;
  /** What it answers (an inbound message, a staff note's id): kept in the ledger entry. */
  ref?: string | null;
}

/**
 * Records a consent change on a person: the ledger entry on their timeline, their own state and the state of the
 * person they were merged into (compare-and-set each). A change to the state it already has writes nothing (a
 * replay, a second STOP). An opt-in without wording is refused.
 */
export async function recordConsent(personId: string, change: ConsentChange): Promise<boolean> {
  if (change.action === 'opt_in' && !change.wording?.trim())
    throw new Error('An opt-in needs the consent wording it was given with');
  const at = change.at.toISOString();
  const next: ChannelState = {
    state: change.action === 'revoke' ? 'revoked' : 'granted',
    at,
    via: change.via,
  };
  const again = retries();
  for (let attempt = 0; await again(attempt); attempt++) {
    const cur = await getPerson(personId);
    if (!cur) return false;
    const p = cur.value;
    if (p.own[change.channel]?.state === next.state) return false;
    const own = { ...p.own, [change.channel]: next };
    const mine: Person = {
      ...p,
      own,
      consent: p.mergedInto ? effective(own, []) : await mergedEffective(p, own),
      updatedAt: at > p.updatedAt ? at : p.updatedAt,
      rev: p.rev + 1,
    };
    if (!(await people().replace(personKey(personId), mine, cur.etag))) continue;
    await addTimeline(personId, {
      at,
      source: 'consent',
      store: null,
      key: null,
      detail: {
        channel: change.channel,
        action: change.action,
        via: change.via,
        wording: change.wording ?? null,
        ref: change.ref ?? null,
      },
    });
    if (p.mergedInto) await refreshEffective(p.mergedInto);
    await notePerson(mine);
    return true;
  }
  return false;
}

/** A root's effective consent from its own and its merged people's own states. */
async function mergedEffective(p: Person, own: Person['own']): Promise<Person['consent']> {
  const merged = await Promise.all(p.merged.map(async (id) => (await getPerson(id))?.value.own ?? {}));
  return effective(own, merged);
}

/** Recomputes a root's effective consent (after a merged person's change, a merge or an undo). */
export async function refreshEffective(rootId: string): Promise<void> {
  const again = retries();
  for (let attempt = 0; await again(attempt); attempt++) {
    const cur = await getPerson(rootId);
    if (!cur) return;
    const consent = await mergedEffective(cur.value, cur.value.own);
    if (JSON.stringify(consent) === JSON.stringify(cur.value.consent)) return;
    const next = { ...cur.value, consent, rev: cur.value.rev + 1 };
    if (await people().replace(personKey(rootId), next, cur.etag)) {
      await notePerson(next);
      return;
    }
  }
}

/** A consent change by address (a STOP from a phone, an unsubscribe of an email); nothing when no person has it. */
export async function recordConsentFor(
  channel: Channel,
  address: string,
  change: Omit<ConsentChange, 'channel'>,
): Promise<void> {
  try {
    const id = await personIdOf(channel, address);
    if (id) await recordConsent(id, { ...change, channel });
  } catch (err) {
    // The channel's own ledger (the text list, the suppression ledger) holds it already and the guards read it.
    console.error(`[people] could not record a ${channel} ${change.action}`, err);
  }
}

/** An email revocation known only by the address's sha256 (the unsubscribe link, the suppression ledger). */
export async function revokeEmailByHash(emailSha256: string, via: string, at: Date): Promise<void> {
  try {
    const id = await personIdByEmailHash(emailSha256);
    if (id) await recordConsent(id, { channel: 'email', action: 'revoke', via, at });
  } catch (err) {
    console.error('[people] could not record an email revocation', err);
  }
}
