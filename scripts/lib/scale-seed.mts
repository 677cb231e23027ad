import { articleSourceHash, type Article } from '../../src/lib/schemas/article.ts';
import { EventInputSchema } from '../../src/lib/schemas/event.ts';
import {
  ContactMessageSchema,
  EmailSubscriptionSchema,
  TextSignupSchema,
  VolunteerSignupSchema,
} from '../../src/lib/schemas/forms.ts';
import { CONTACT_SUBJECTS, STATES } from '../../src/lib/schemas/public-forms.ts';
import { RsvpInputSchema } from '../../src/lib/schemas/rsvp.ts';
import type { Lang } from '../../src/lib/lang.ts';
import { appendAuditBatch, type Actor, type AuditInput } from '../../src/lib/server/audit/audit.ts';
import type { AuditKind } from '../../src/lib/schemas/audit-kinds.ts';
import { seedArticle } from '../../src/lib/server/content/articles.ts';
import { campaignToday, createEvent } from '../../src/lib/server/content/events.ts';
import { rsvp } from '../../src/lib/server/events/rsvp.ts';
import { bulkInsertInbox } from '../../src/lib/server/inbox/bulk.ts';
import { contactRecord, volunteerRecord } from '../../src/lib/server/public-forms/submissions.ts';
import { confirmedSubscriber, subscriberRecord } from '../../src/lib/server/public-forms/subscribers.ts';
import { personKey, textSignupRecords } from '../../src/lib/server/texting/text-signups.ts';
import { ConsentEventSchema } from '../../src/lib/schemas/inbox.ts';
import { isLocalMode, TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { nextId } from '../../src/lib/server/storage/counters.ts';
import { key } from '../../src/lib/server/storage/keys.ts';
import { mapLimit } from '../../src/lib/server/storage/map-limit.ts';
import { reindexAll } from './reindex.mts';

/**
 * `npm run seed -- --scale N`: a store the size of a real campaign's, for
 * anyone to try the staff pages and the benchmarks at scale
 * (docs/decisions/153-storage.md). Writes
 * through the repositories: N volunteers, N contact messages, N text sign-ups and
 * N email subscribers by the Inbox repositories' bulk path (each record built by
 * the repository's own builder, exactly as the public form stores it; no email or
 * text sent, and the record's delivery status says so; each list's index written
 * once: docs/decisions/168-benchmarks-and-scale.md), then 2N audit entries by the
 * audit bulk path (appendAuditBatch: exactly what one-by-one appends would leave,
 * then verified and indexed by the incremental check), one upcoming event with
 * N/10 RSVPs folded into its roster many at a time, and N/20 articles through
 * their repository, then rebuilds every other index. Names are English, Spanish
 * and Vietnamese (docs/decisions/154-audit-trail.md,
 * docs/decisions/153-storage.md).
 */

const FIRST = {
  en: ['James', 'Mary', 'Robert', 'Patricia', 'Michael', 'Linda', 'David', 'Jennifer', 'Marcus', 'Tanya'],
  es: ['José', 'María', 'Juan', 'Guadalupe', 'Luis', 'Carmen', 'Alejandro', 'Lucía', 'Andrés', 'Sofía'],
  vi: ['Minh', 'Lan', 'Tuấn', 'Hương', 'Dũng', 'Thảo', 'Quang', 'Ngọc', 'Hải', 'Mai'],
};
const LAST = {
  en: ['Johnson', 'Williams', 'Brown', 'Jones', 'Davis', 'Robinson', 'Washington', 'Thibodeaux', 'Landry'],
  es: ['García', 'Rodríguez', 'Martínez', 'Hernández', 'López', 'González', 'Pérez', 'Sánchez', 'Ramírez'],
  vi: ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng', 'Huỳnh', 'Phan', 'Vũ', 'Võ', 'Đặng'],
};
const ASCII: Record<string, string> = { á: 'a', é: 'e', í: 'i', ó: 'o', ú: 'u', ñ: 'n', ấ: 'a', ũ: 'u' };
const CITIES = ['New Orleans', 'Metairie', 'Kenner', 'Gretna', 'Chalmette', 'Harvey', 'Marrero'];
const ZIPS = ['70112', '70115', '70117', '70119', '70122', '70125', '70126', '70128', '70131'];
const INTERESTS = ['Canvassing', 'Phone banking', 'Events', 'Data entry', 'Translation', 'Driving voters'];
const STREETS = ['Magazine St', 'St Claude Ave', 'Elysian Fields Ave', 'Chef Menteur Hwy', 'Gentilly Blvd'];
const AREA_CODES = ['504', '985', '225'];
/** What a seeded record says about the email or text the public path would have sent. */
const NO_EMAIL = 'Seeded record (npm run seed -- --scale): no notification email sent';
const NO_TEXT = 'Seeded record (npm run seed -- --scale): no confirmation text sent';
/** A consent log key, as appendConsentEvent makes them (time-ordered, unique per person). */
const consentKey = (id: string, at: Date) => key('consent', id, `${at.toISOString()}-seed`);

interface Person {
  first: string;
  last: string;
  lang: Lang;
  email: string;
  phone: string;
}

/** A name as an email address spells it: no accents, lowercase (a few dozen names, each spelled once). */
const spelled = new Map<string, string>();
function plain(name: string): string {
  let out = spelled.get(name);
  if (out === undefined)
    spelled.set(
      name,
      (out = name
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[đĐ]/g, 'd')
        .replace(/./g, (c) => ASCII[c] ?? c)
        .toLowerCase()),
    );
  return out;
}

/** The i-th person: a name from one of three languages, a unique email and phone (deterministic). */
function person(i: number, tag: string): Person {
  const origin = (['en', 'es', 'vi'] as const)[i % 3]!;
  const first = FIRST[origin][Math.floor(i / 3) % FIRST[origin].length]!;
  const last = LAST[origin][Math.floor(i / 30) % LAST[origin].length]!;
  const area = AREA_CODES[i % AREA_CODES.length]!;
  // Exchange 2xx-9xx, line 0000-9999: valid North American numbers, distinct for i below 8 million.
  const exchange = 200 + (Math.floor(i / 10_000) % 800);
  const line = String(i % 10_000).padStart(4, '0');
  return {
    first,
    last,
    lang: origin === 'es' ? 'es' : 'en',
    email: `${plain(first)}.${plain(last)}.${tag}${i}@example.org`,
    phone: `+1${area}${exchange}${line}`,
  };
}

/** Runs `work` over 0..count-1, at most `limit` at a time. */
async function pool(count: number, limit: number, work: (i: number) => Promise<unknown>): Promise<void> {
  await mapLimit(
    Array.from({ length: count }, (_, i) => i),
    limit,
    work,
  );
}

/** Audit entries written per bulk append (a batch is computed in memory, then written side by side). */
const AUDIT_BATCH = 2000;

const AUDIT_KINDS_SEEDED: AuditKind[] = [
  'auth.sign_in',
  'article.update',
  'event.update',
  'inbox.export',
  'auth.sign_out',
  'metric.update',
];

export interface ScaleReport {
  wrote: Record<string, number>;
  ms: Record<string, number>;
  totalMs: number;
  /** The event the RSVPs went to and the first article written (when those parts ran). */
  ids: { event?: number; article?: number };
}

/** The parts of the scale seed: the Inbox lists, the audit trail, the event and its RSVPs, the articles. */
export const SCALE_PARTS = ['inbox', 'audit', 'rsvps', 'articles'] as const;
export type ScalePart = (typeof SCALE_PARTS)[number];

export async function seedScale(
  n: number,
  {
    concurrency = 16,
    log = console.log.bind(console),
    parts = SCALE_PARTS,
  }: { concurrency?: number; log?: (line: string) => void; parts?: readonly ScalePart[] } = {},
): Promise<ScaleReport> {
  if (!isLocalMode()) throw new Error('The scale seed is for local mode only (APP_ENV development or test).');
  if (!Number.isSafeInteger(n) || n < 1 || n > 1_000_000)
    throw new Error('--scale takes a whole number 1..1000000');
  const started = performance.now();
  // The local adapters log every email and text they store in the outbox: N lines each, kept quiet here.
  const quiet = { log: console.log, info: console.info };
  console.log = () => {};
  console.info = () => {};
  try {
    return await seedScaleQuietly(n, concurrency, log, started, new Set(parts));
  } finally {
    Object.assign(console, quiet);
  }
}

async function seedScaleQuietly(
  n: number,
  concurrency: number,
  log: (line: string) => void,
  started: number,
  parts: ReadonlySet<ScalePart>,
): Promise<ScaleReport> {
  const wrote: Record<string, number> = {};
  const ms: Record<string, number> = {};
  const ids: ScaleReport['ids'] = {};
  const now = new Date();
  const meta = { ip: '203.0.113.7', userAgent: 'npm run seed -- --scale' };
  const partOf = (name: string): ScalePart =>
    name === 'audit entries'
      ? 'audit'
      : name === 'event' || name === 'RSVPs'
        ? 'rsvps'
        : name === 'articles'
          ? 'articles'
          : 'inbox';
  const phase = async (name: string, count: number, work: () => Promise<void>) => {
    if (!parts.has(partOf(name))) return;
    const t = performance.now();
    await work();
    wrote[name] = count;
    ms[name] = Math.round(performance.now() - t);
    log(`  ${name}: ${count} in ${(ms[name] / 1000).toFixed(1)} s`);
  };
  // Spread over the last 60 days, oldest first, so lists have realistic dates.
  const when = (i: number, count: number) =>
    new Date(now.getTime() - (60 * 86_400_000 * (count - i)) / count);

  // The Inbox kinds go through the repositories' bulk path (docs/decisions/168-benchmarks-and-scale.md): each
  // record built by the repository's own builder, exactly as the public form stores it, written many at once,
  // and each list's index written once. No notification email or confirmation text is sent for them, and their
  // delivery status says so.
  const range = (count: number) => Array.from({ length: count }, (_, i) => i);
  await phase('volunteers', n, async () => {
    await bulkInsertInbox(
      'volunteers',
      range(n).map((i) => {
        const p = person(i, 'v');
        const { key, record } = volunteerRecord(
          VolunteerSignupSchema.parse({
            firstName: p.first,
            lastName: p.last,
            email: p.email,
            phone: p.phone,
            address1: `${100 + (i % 8900)} ${STREETS[i % STREETS.length]}`,
            city: CITIES[i % CITIES.length],
            state: STATES[i % 7 === 6 ? 1 : 0],
            zip: ZIPS[i % ZIPS.length],
            interests: [INTERESTS[i % INTERESTS.length], INTERESTS[(i + 2) % INTERESTS.length]],
            captchaResponse: 'seed',
            lang: p.lang,
          }),
          meta,
          when(i, n),
        );
        return { key, record: { ...record, emailStatus: 'skipped', emailError: NO_EMAIL } };
      }),
    );
  });
  await phase('contacts', n, async () => {
    await bulkInsertInbox(
      'contacts',
      range(n).map((i) => {
        const p = person(i, 'c');
        const { key, record } = contactRecord(
          ContactMessageSchema.parse({
            name: `${p.first} ${p.last}`,
            email: p.email,
            phone: i % 2 ? p.phone : undefined,
            subject: CONTACT_SUBJECTS[i % CONTACT_SUBJECTS.length],
            message:
              p.lang === 'es'
                ? '¿Cuándo pasan a tocar puertas en mi barrio? Quiero ayudar.'
                : 'When is the next town hall near Gentilly? The drainage on our block needs attention.',
            captcha: 'seed',
            lang: p.lang,
          }),
          meta,
          when(i, n),
        );
        return { key, record: { ...record, emailStatus: 'skipped', emailError: NO_EMAIL } };
      }),
    );
  });
  await phase('text sign-ups', n, async () => {
    await bulkInsertInbox(
      'text-signups',
      range(n).map((i) => {
        const p = person(i, 't');
        const at = when(i, n);
        const {
          id,
          optIn,
          person: record,
        } = textSignupRecords(
          TextSignupSchema.parse({
            firstName: p.first,
            phone: p.phone,
            email: i % 4 === 0 ? p.email : undefined,
            smsConsent: true,
            sourcePage: p.lang === 'es' ? '/es/volunteer' : '/volunteer',
            lang: p.lang,
          }),
          meta,
          at,
        );
        return {
          key: personKey(id),
          record: {
            ...record,
            confirmation: { status: 'skipped', messageId: null, error: NO_TEXT, at: at.toISOString() },
          },
          also: [{ key: consentKey(id, at), value: ConsentEventSchema.parse(optIn) }],
        };
      }),
    );
  });
  await phase('email subscribers', n, async () => {
    await bulkInsertInbox(
      'email-subscribers',
      range(n).map((i) => {
        const p = person(i, 's');
        const at = when(i, n);
        const { key, record } = subscriberRecord(
          EmailSubscriptionSchema.parse({
            email: p.email,
            sourcePage: '/blog',
            lang: p.lang,
            captcha: TURNSTILE_TEST_TOKEN,
          }),
          meta,
          at,
        );
        // Double opt-in: as the person's Confirm press leaves the record (the seed has no inbox to read the emailed
        // link from), so the seeded list is of subscribers.
        return { key, record: confirmedSubscriber(record, meta, at) };
      }),
    );
  });
  const staff: Actor[] = [
    { id: 1, username: 'admin' },
    { id: 2, username: 'editor' },
    { id: 3, username: 'viewer' },
  ];
  await phase('audit entries', 2 * n, async () => {
    // The bulk path (audit.ts, appendAuditBatch): the entries, index keys, anchors and head one-by-one appends
    // would leave, written side by side and verified and indexed by the incremental check as it goes.
    const entry = (i: number): { input: AuditInput; now: Date } => {
      const kind = AUDIT_KINDS_SEEDED[i % AUDIT_KINDS_SEEDED.length]!;
      return {
        input: {
          kind,
          actor: staff[i % staff.length]!,
          target: kind.startsWith('auth.')
            ? null
            : { type: kind.split('.')[0]!, id: 1 + (i % 50), label: `Seeded ${i}` },
          details: kind === 'inbox.export' ? { kind: 'volunteers' } : {},
          ip: `198.51.100.${i % 250}`,
        },
        now: when(i, 2 * n),
      };
    };
    for (let i = 0; i < 2 * n; i += AUDIT_BATCH)
      await appendAuditBatch(
        Array.from({ length: Math.min(AUDIT_BATCH, 2 * n - i) }, (_, j) => entry(i + j)),
      );
  });
  const rsvps = Math.floor(n / 10);
  let eventId = 0;
  await phase('event', 1, async () => {
    const event = await createEvent(
      EventInputSchema.parse({
        title: 'Get Out the Vote Rally',
        description: 'The last weekend: doors, phones and a rally at the end of the day.',
        location: 'Congo Square, Louis Armstrong Park, New Orleans, LA',
        eventDate: campaignToday(new Date(now.getTime() + 7 * 86_400_000)),
        startTime: '10:00',
        endTime: '16:00',
        eventType: 'rally',
        isPublic: true,
        maxAttendees: null,
        // RSVPs on this site: registration required, no outside registration link.
        registrationRequired: true,
      }),
      now,
    );
    eventId = event.id;
    ids.event = event.id;
  });
  await phase('RSVPs', rsvps, () =>
    // RSVPs to one event are folded into its roster together (storage/combiner.ts): more at once, fewer roster writes.
    pool(rsvps, Math.max(concurrency, 64), async (i) => {
      const p = person(i, 'r');
      await rsvp(
        eventId,
        RsvpInputSchema.parse({
          name: `${p.first} ${p.last}`,
          email: p.email,
          phone: i % 3 ? p.phone : undefined,
          guests: i % 5 === 0 ? 1 : 0,
          smsReminder: i % 3 === 1,
          captchaResponse: 'seed',
          lang: p.lang,
        }),
        meta,
        now,
      );
    }),
  );
  const articleCount = Math.floor(n / 20);
  await phase('articles', articleCount, async () => {
    // Ids first (the counter is one document), then the records in parallel; the index is built once at the end.
    const articleIds: number[] = [];
    for (let i = 0; i < articleCount; i++) articleIds.push(await nextId('articles'));
    ids.article = articleIds[0];
    await pool(articleCount, concurrency, async (i) => {
      const id = articleIds[i]!;
      const at = when(i, articleCount).toISOString();
      const p = person(i, 'a');
      const english = {
        title: `Neighborhood report ${i + 1}: what we heard from ${p.first} ${p.last}`,
        excerpt: 'Drainage, streets and safety, block by block.',
        content: `<p>${'We knocked on doors and listened. Residents asked for working pumps, safer crossings and faster permits. '.repeat(20)}</p>`,
      };
      const es =
        i % 2 === 0
          ? {
              es: {
                title: `Informe del barrio ${i + 1}`,
                slug: `informe-del-barrio-${id}`,
                excerpt: 'Drenaje, calles y seguridad, cuadra por cuadra.',
                content: `<p>${'Tocamos puertas y escuchamos a los vecinos. '.repeat(20)}</p>`,
                sourceHash: articleSourceHash(english),
                sourceUpdatedAt: at,
                updatedAt: at,
              },
            }
          : {};
      const article: Article = {
        id,
        ...english,
        imageUrl: '',
        author: i % 3 === 0 ? 'Jordan Avery' : 'Press Office',
        slug: `neighborhood-report-${id}`,
        isPublished: i % 10 !== 9,
        publishedAt: i % 10 !== 9 ? at : null,
        createdAt: at,
        updatedAt: at,
        translations: es,
      };
      await seedArticle(article, false);
    });
  });
  const t = performance.now();
  // The Inbox lists' indexes were written by the bulk path from these very records.
  const indexed = await reindexAll({ inbox: 'skip' });
  ms.reindex = Math.round(performance.now() - t);
  log(`  indexes rebuilt in ${(ms.reindex / 1000).toFixed(1)} s: ${JSON.stringify(indexed)}`);
  return { wrote, ms, totalMs: Math.round(performance.now() - started), ids };
}
