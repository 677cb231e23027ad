import { IDENTITY } from '../../../content/identity.ts';
import { SHIFT_COPY } from '../../../content/shifts.ts';
import { fill } from '../../fill.ts';
import { DEFAULT_LANG, type Lang } from '../../lang.ts';
import { greeting } from '../../merge-fields.ts';
import type { CampaignEvent } from '../../schemas/event.ts';
import { ShiftsDocSchema, slotLine, type ShiftSlot } from '../../schemas/shifts.ts';
import { sendEmail } from '../adapters/email.ts';
import { update } from '../storage/compare-and-set.ts';
import { key } from '../storage/keys.ts';
import type { KV } from '../storage/kv.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { kv } from '../storage/stores.ts';
import { sendGuardedText } from '../texting/text-guard.ts';
import { cancelUrl } from './rsvp-email.ts';
import { isNoShowFlagged } from './shift-attendance.ts';
import { getShiftRecord, getShifts, getSlotRoster, shiftIcsUrl, shiftsKey } from './shifts.ts';
// Registers the notice texts' consent reader with the guard before anything here sends.
import './shift-consent.ts';

/**
 * Notices of a shift's change (docs/decisions/181-shifts.md, "Notices"). When staff change a slot's day, hours or
 * place, `setShifts` moves the slot's version on; when they cancel a slot people hold places in, it moves to the
 * document's `cancelled` list. After every save, this pass tells everyone on each such slot (going and waitlisted)
 * once: an email in their language, and a text through the text guard to those who asked for texts and are not
 * flagged "call, don't text". Exactly once per person and slot version: the notice is claimed first
 * (`shift-notice/<event>/<slot>/<version>/<person>`, created only if new), so a retried request, a second save or
 * two staff saving at once tell no one twice; then the slot is marked told (`noticed`), and a pass that stopped
 * half way is finished by the next save of the event's shifts.
 */

const store = (): KV => kv('rsvps');
export const noticeClaimKey = (eventId: number, slot: string, version: string, person: string) =>
  key('shift-notice', eventId, slot, version, person);

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').slice(0, 200);

type Kind = 'changed' | 'cancelled';

function noticeEmail(event: CampaignEvent, slot: ShiftSlot, kind: Kind, who: Person) {
  const w = SHIFT_COPY[who.lang];
  const line = slotLine(slot, who.lang);
  const links =
    kind === 'changed'
      ? [
          '',
          fill(w.addToCalendar, shiftIcsUrl(event.id, slot.id, who.lang)),
          fill(w.cancelShift, line, cancelUrl(event.id, `${slot.id}:${who.id}`, who.lang)),
        ]
      : [];
  return {
    to: who.email,
    replyTo: event.contactEmail,
    subject: oneLine(fill(kind === 'changed' ? w.subjectChanged : w.subjectCancelled, event.title)),
    text: [
      greeting(who.name, who.lang),
      '',
      fill(kind === 'changed' ? w.changed : w.cancelled, line),
      ...links,
      '',
      IDENTITY.committeeName,
    ].join('\n'),
  };
}

interface Person {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  lang: Lang;
  texts: boolean;
}

/** Everyone holding a place or waiting on a slot, with their language and whether they asked for texts. */
async function peopleOn(eventId: number, slotId: string): Promise<Person[]> {
  const { entries } = await getSlotRoster(eventId, slotId);
  const on = entries.filter((e) => e.status === 'going' || e.status === 'waitlisted');
  return mapLimit(on, 8, async (e) => {
    const rec = await getShiftRecord(eventId, e.id);
    return {
      id: e.id,
      name: rec?.name ?? e.person?.name ?? '',
      email: rec?.email ?? e.person?.email ?? '',
      phone: rec?.phone ?? null,
      lang: rec?.lang ?? DEFAULT_LANG,
      texts: Boolean(rec?.smsReminder && rec.phone),
    };
  });
}

/** Tells one person, once: the claim first, then the email, then the text (each failure logged, none retried). */
async function tell(
  event: CampaignEvent,
  slot: ShiftSlot,
  version: string,
  kind: Kind,
  who: Person,
  now: Date,
) {
  if (
    !(await store().create(noticeClaimKey(event.id, slot.id, version, who.id), {
      at: now.toISOString(),
      kind,
    }))
  )
    return false;
  if (who.email)
    await sendEmail(noticeEmail(event, slot, kind, who)).catch((err: unknown) =>
      console.error('[shift notices] email failed', err instanceof Error ? err.message : err),
    );
  if (who.texts && who.phone && !(await isNoShowFlagged(who.id))) {
    const w = SHIFT_COPY[who.lang];
    const body = fill(
      kind === 'changed' ? w.textChanged : w.textCancelled,
      event.title,
      slotLine(slot, who.lang),
    );
    await sendGuardedText({
      to: who.phone,
      body,
      lang: who.lang,
      consent: { purpose: 'shift_notice', eventId: event.id, personKey: who.id },
      now,
    }).catch((err: unknown) =>
      console.error('[shift notices] text failed', err instanceof Error ? err.message : err),
    );
  }
  return true;
}

/** Marks a slot's version (or its cancellation) told, under compare-and-set. */
async function markTold(eventId: number, slotId: string, kind: Kind, v: number) {
  await update<unknown>(store(), shiftsKey(eventId), (raw) => {
    const doc = ShiftsDocSchema.parse(raw);
    if (kind === 'cancelled')
      return {
        ...doc,
        cancelled: doc.cancelled.map((c) => (c.slot.id === slotId ? { ...c, noticed: true } : c)),
      };
    const cur = doc.versions[slotId];
    if (!cur || cur.noticed >= v) return doc;
    return { ...doc, versions: { ...doc.versions, [slotId]: { ...cur, noticed: v } } };
  });
}

/**
 * Sends every notice the event's shifts owe (after each save by staff): each slot whose version moved past the
 * last one told, each cancelled slot not told yet. Answers how many people were told now.
 */
export async function sendShiftNotices(event: CampaignEvent, now = new Date()): Promise<{ told: number }> {
  const doc = await getShifts(event.id);
  let told = 0;
  const pass = async (slot: ShiftSlot, version: string, kind: Kind, v: number) => {
    const people = await peopleOn(event.id, slot.id);
    const done = await mapLimit(people, 4, (who) => tell(event, slot, version, kind, who, now));
    told += done.filter(Boolean).length;
    await markTold(event.id, slot.id, kind, v);
  };
  for (const slot of doc.slots) {
    const ver = doc.versions[slot.id];
    if (ver && ver.v > ver.noticed) await pass(slot, `v${ver.v}`, 'changed', ver.v);
  }
  for (const c of doc.cancelled.filter((x) => !x.noticed))
    await pass(c.slot, `cancelled-${Date.parse(c.at)}`, 'cancelled', 0);
  return { told };
}

/**
 * A slot staff cancelled (docs/decisions/181-shifts.md): nothing more is sent about it, no reminder and no
 * follow-up. A slot that is neither offered nor cancelled is unknown (false).
 */
export async function isSlotCancelled(eventId: number, slotId: string): Promise<boolean> {
  const doc = await getShifts(eventId);
  return !doc.slots.some((s) => s.id === slotId) && doc.cancelled.some((c) => c.slot.id === slotId);
}
