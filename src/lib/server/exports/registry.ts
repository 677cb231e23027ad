import { z } from 'zod';
import { INBOX_KIND_NAMES, isInboxKind } from '../../inbox-kinds.ts';
import { campaignToday } from '../../campaign-time.ts';
import { isLang, LANGS } from '../../lang.ts';
import { AuditQuerySchema } from '../../schemas/audit.ts';
import type { AuditKind } from '../../schemas/audit-kinds.ts';
import { auditExportSource } from '../audit/activity.ts';
import { target, type AuditTarget } from '../audit/audit.ts';
import type { RequireOptions } from '../auth/session.ts';
import { donationExportSource, donationRange } from '../donations/ledger.ts';
import { broadcastExportSource } from '../broadcasts/staff.ts';
import { HttpError, zodToHttp } from '../errors.ts';
import { rsvpExportSource } from '../events/rsvp-staff.ts';
import { shiftExportSource } from '../events/shifts.ts';
import { withAttendanceColumns } from '../events/shift-attendance.ts';
import { inboxExportSource, parseInboxDay, parseReachStatus } from '../inbox/lists.ts';
import { votePlanExportSource } from '../vote-plans/staff.ts';
import { FILTER_PARAMS, filterFromParams, filterParams } from '../people/filters.ts';
import { peopleExportSource } from '../people/staff.ts';
import { rowsFrom, type ExportSource } from '../export-source.ts';

/**
 * Every staff export by name (docs/decisions/156-exports.md): who may start it,
 * its parameters, its source and the audit entry that records it. The export mechanism
 * (exports.ts) needs nothing else: every staff CSV (the Inbox lists, Activity, an event's attendees,
 * donations, plans to vote) is an entry here whose `open` returns its ExportSource, read in bounded pages
 * (docs/decisions/156-exports.md). A list's `?format=csv` answers the same
 * entry through `directExport` (exports.ts).
 */
export interface ExportKind<S extends ExportSource = ExportSource> {
  /** Who may start it, see its progress and download it (its owner only). */
  permission: NonNullable<RequireOptions['permission']>;
  /** The parameters, checked (400 on anything else) and normalised; kept on the job. */
  params(raw: Record<string, string>): Record<string, string>;
  /** The rows, as of `now`. */
  open(params: Record<string, string>, now: Date): Promise<S>;
  /** The audit entry of the export (every export of staff data is audited), once its source is open. */
  audit(
    params: Record<string, string>,
    source: S,
  ): {
    kind: AuditKind;
    target: AuditTarget | null;
    details: Record<string, string>;
  };
}

/**
 * The Inbox lists: `kind` (volunteers, contacts, text-signups, email-subscribers), `q`, `lang`, `status` and the
 * sign-up days `from`/`to`, as the list shows.
 */
const inbox: ExportKind = {
  permission: 'edit_content',
  params(raw) {
    const { kind, q = '', lang = '', status = '', from = '', to = '', ...rest } = raw;
    if (Object.keys(rest).length) throw new HttpError(400, `Unknown parameter: ${Object.keys(rest)[0]}`);
    if (!kind || !isInboxKind(kind)) throw new HttpError(400, 'Unknown Inbox list');
    if (lang && !isLang(lang)) throw new HttpError(400, `lang must be one of ${LANGS.join(', ')}`);
    const reach = parseReachStatus(status);
    const days = { from: parseInboxDay('from', from), to: parseInboxDay('to', to) };
    return {
      kind,
      q: q.trim().slice(0, 200),
      ...(lang ? { lang } : {}),
      ...(reach ? { status: reach } : {}),
      ...(days.from ? { from: days.from } : {}),
      ...(days.to ? { to: days.to } : {}),
    };
  },
  open(params, now) {
    const kind = params.kind!;
    if (!isInboxKind(kind)) throw new HttpError(400, 'Unknown Inbox list');
    const status = parseReachStatus(params.status);
    return inboxExportSource(
      kind,
      {
        q: params.q ?? '',
        ...(isLang(params.lang) ? { lang: params.lang } : {}),
        ...(status ? { status } : {}),
        ...(params.from ? { from: parseInboxDay('from', params.from) } : {}),
        ...(params.to ? { to: parseInboxDay('to', params.to) } : {}),
      },
      now,
    );
  },
  audit(params) {
    const details: Record<string, string> = {};
    if (params.q) details.search = params.q;
    if (params.lang) details.lang = params.lang;
    if (params.status) details.status = params.status;
    if (params.from) details.from = params.from;
    if (params.to) details.to = params.to;
    return {
      kind: 'inbox.export',
      target: { type: 'inbox', id: params.kind!, label: params.kind! },
      details,
    };
  },
};

/**
 * Every Inbox list at once (admin, editor, as each list): no parameters; one CSV per list (each the list's own
 * export, unfiltered), with its own signed, expiring link; audited as one inbox.export of `all`.
 */
const inbox_all: ExportKind = {
  permission: 'edit_content',
  params(raw) {
    const extra = Object.keys(raw);
    if (extra.length) throw new HttpError(400, `Unknown parameter: ${extra[0]}`);
    return {};
  },
  async open(_params, now) {
    const files = await Promise.all(INBOX_KIND_NAMES.map((kind) => inboxExportSource(kind, { q: '' }, now)));
    return {
      filename: `inbox-${campaignToday(now)}.csv`,
      columns: [],
      total: files.reduce((n, f) => n + (f.total ?? 0), 0),
      rows: rowsFrom([]),
      files,
    };
  },
  audit: () => ({
    kind: 'inbox.export',
    target: { type: 'inbox', id: 'all', label: 'all lists' },
    details: { lists: INBOX_KIND_NAMES.join(', ') },
  }),
};

/** Checks a kind's parameters with a strict schema (400 on an unknown or invalid one); the values as strings. */
function checked<T extends z.ZodType>(schema: T, raw: Record<string, string>): z.output<T> {
  const r = schema.safeParse(raw);
  if (!r.success) throw zodToHttp(r.error);
  return r.data;
}
const asStrings = (o: Record<string, string | number | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(o).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));

const ActivityParamsSchema = AuditQuerySchema.pick({ actor: true, kind: true, from: true, to: true });

/** Activity (admins: view_audit): `actor`, `kind`, `from`, `to`, as the tab filters; audited as audit.export. */
const activity: ExportKind = {
  permission: 'view_audit',
  params: (raw) => asStrings(checked(ActivityParamsSchema, raw)),
  open: (params, now) => auditExportSource(checked(ActivityParamsSchema, params), now),
  audit: (params) => ({ kind: 'audit.export', target: null, details: params }),
};

const AttendeesParamsSchema = z.strictObject({
  event: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** An event's attendees (every staff role reads them): `event`; audited as rsvp.export with the row count. */
const attendees: ExportKind<Awaited<ReturnType<typeof rsvpExportSource>>> = {
  permission: 'view_admin',
  params: (raw) => asStrings(checked(AttendeesParamsSchema, raw)),
  open: (params) => rsvpExportSource(checked(AttendeesParamsSchema, params).event),
  audit: (_params, source) => ({
    kind: 'rsvp.export',
    target: target.event(source.event),
    details: { rows: String(source.total ?? 0) },
  }),
};

const ShiftParamsSchema = z.strictObject({
  event: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  slot: z.string().regex(/^[a-z0-9][a-z0-9-]{0,79}$/, 'Unknown shift'),
});

/** One shift's people (every staff role, like the attendees): `event`, `slot`; audited as rsvp.export (docs/decisions/181-shifts.md). */
const shift_attendees: ExportKind<Awaited<ReturnType<typeof shiftExportSource>>> = {
  permission: 'view_admin',
  params: (raw) => asStrings(checked(ShiftParamsSchema, raw)),
  open: (params) => {
    const p = checked(ShiftParamsSchema, params);
    return shiftExportSource(p.event, p.slot);
  },
  audit: (params, source) => ({
    kind: 'rsvp.export',
    target: target.event(source.event),
    details: { shift: params.slot!, rows: String(source.total ?? 0) },
  }),
};

const DonationsParamsSchema = z.strictObject({ from: z.string().optional(), to: z.string().optional() });

/** Donations by day and attribution (every staff role reads them): `from`, `to` (the tab's range, defaulted). */
const donations: ExportKind = {
  permission: 'view_admin',
  params: (raw) => donationRange(checked(DonationsParamsSchema, raw)),
  open: (params) => donationExportSource(donationRange(params)),
  audit: (params) => ({
    kind: 'donation.export',
    target: null,
    details: { from: params.from!, to: params.to! },
  }),
};

const VotePlansParamsSchema = z.strictObject({ round: z.enum(['primary', 'runoff']) });

/** A round's plans to vote (admin, editor, like the Inbox): `round`; audited as vote_plan.export. */
const vote_plans: ExportKind = {
  permission: 'edit_content',
  params: (raw) => checked(VotePlansParamsSchema, raw),
  open: (params, now) => votePlanExportSource(checked(VotePlansParamsSchema, params).round, now),
  audit: (params) => ({
    kind: 'vote_plan.export',
    target: { type: 'vote-plans', id: params.round!, label: params.round! },
    details: {},
  }),
};

const BroadcastParamsSchema = z.strictObject({
  broadcast: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** A broadcast's report, every recipient and what happened (editors and admins): `broadcast`; audited as broadcast.export. */
const broadcast: ExportKind<Awaited<ReturnType<typeof broadcastExportSource>>> = {
  permission: 'draft_broadcasts',
  params: (raw) => asStrings(checked(BroadcastParamsSchema, raw)),
  open: (params) => broadcastExportSource(checked(BroadcastParamsSchema, params).broadcast),
  audit: (_params, source) => ({
    kind: 'broadcast.export',
    target: { type: 'broadcast', id: source.broadcast.id, label: source.filename },
    details: { rows: String(source.total ?? 0) },
  }),
};

/** The People list (editors and admins, like the Inbox): its filters (people/filters.ts); audited as person.export. */
const people: ExportKind = {
  permission: 'edit_content',
  params: (raw) => filterParams(filterFromParams(checked(PeopleParamsSchema, raw))),
  // With each person's shifts (signed up, confirmed, attended, no-show, call-don't-text): shift-attendance.ts.
  open: async (params, now) => withAttendanceColumns(await peopleExportSource(filterFromParams(params), now)),
  audit: (params, source) => ({
    kind: 'person.export',
    target: { type: 'people', id: 'people', label: 'People' },
    details: { ...params, rows: String(source.total ?? 0) },
  }),
};
const PeopleParamsSchema = z.strictObject(
  Object.fromEntries(FILTER_PARAMS.map((k) => [k, z.string().optional()])) as Record<
    (typeof FILTER_PARAMS)[number],
    z.ZodOptional<z.ZodString>
  >,
);

export const EXPORT_KINDS: Record<string, ExportKind> = {
  inbox,
  inbox_all,
  activity,
  attendees,
  shift_attendees,
  donations,
  vote_plans,
  broadcast,
  people,
};

export function exportKind(name: string): ExportKind {
  const kind = Object.hasOwn(EXPORT_KINDS, name) ? EXPORT_KINDS[name] : undefined;
  if (!kind) throw new HttpError(400, 'Unknown export');
  return kind;
}
