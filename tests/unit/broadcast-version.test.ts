import { describe, expect, it } from 'vitest';
import { StoredBroadcastSchema, type StoredBroadcast } from '../../src/lib/schemas/broadcasts.ts';
import { emptyRun } from '../../src/lib/server/broadcasts/repo.ts';
import {
  UNVERSIONED_FIELDS,
  VERSIONED_FIELDS,
  broadcastVersion,
} from '../../src/lib/server/broadcasts/version.ts';

/**
 * A broadcast's version covers everything that decides what recipients get, and nothing else
 * (docs/decisions/152-broadcasts.md).
 */

const at = '2026-11-03T08:00:00-06:00';
const EMAIL: StoredBroadcast = StoredBroadcastSchema.parse({
  id: 1,
  name: 'Newsletter',
  channel: 'email',
  audience: { kind: 'volunteers', place: 'New Orleans', attendeeStatuses: ['going'] },
  email: {
    subject: 'Polls open at 7',
    subjectEs: 'Las urnas abren a las 7',
    preview: 'Find your polling place',
    previewEs: 'Encuentre su lugar',
    html: '<p>Hi {firstName}</p>',
    htmlEs: '<p>Hola {firstName}</p>',
    firstNameFallback: 'neighbor',
  },
  status: 'ready',
  scheduledAt: null,
  createdBy: 'editor',
  createdAt: at,
  updatedAt: at,
  updatedBy: 'editor',
  approvedBy: null,
  approvedAt: null,
  run: { ...emptyRun(3), recipients: 12 },
});
const TEXT: StoredBroadcast = {
  ...EMAIL,
  channel: 'text',
  email: undefined,
  text: { body: 'Hi {firstName}', bodyEs: 'Hola {firstName}', firstNameFallback: 'friend' },
};

describe('broadcastVersion', () => {
  it('is a SHA-256 in hex, the same for the same content whatever the key order', () => {
    const v = broadcastVersion(EMAIL);
    expect(v).toMatch(/^[0-9a-f]{64}$/);
    const reordered = {
      ...EMAIL,
      audience: { attendeeStatuses: ['going' as const], place: 'New Orleans', kind: 'volunteers' as const },
    };
    expect(broadcastVersion(reordered)).toBe(v);
  });

  const changes: [string, StoredBroadcast, (b: StoredBroadcast) => StoredBroadcast][] = [
    ['channel', TEXT, (b) => ({ ...b, channel: 'email', email: EMAIL.email })],
    ['audience kind', EMAIL, (b) => ({ ...b, audience: { ...b.audience, kind: 'event_attendees' } })],
    ['audience filter', EMAIL, (b) => ({ ...b, audience: { ...b.audience, place: '70112' } })],
    ['audience statuses', EMAIL, (b) => ({ ...b, audience: { ...b.audience, attendeeStatuses: [] } })],
    ['run generation (a new preparation)', EMAIL, (b) => ({ ...b, run: { ...b.run, gen: b.run.gen + 1 } })],
    ...(['body', 'bodyEs', 'firstNameFallback'] as const).map(
      (f) =>
        [
          `text.${f}`,
          TEXT,
          (b: StoredBroadcast) => ({ ...b, text: { ...b.text!, [f]: `${b.text![f]}!` } }),
        ] as [string, StoredBroadcast, (b: StoredBroadcast) => StoredBroadcast],
    ),
    ...(['subject', 'subjectEs', 'preview', 'previewEs', 'html', 'htmlEs', 'firstNameFallback'] as const).map(
      (f) =>
        [
          `email.${f}`,
          EMAIL,
          (b: StoredBroadcast) => ({ ...b, email: { ...b.email!, [f]: `${b.email![f]}!` } }),
        ] as [string, StoredBroadcast, (b: StoredBroadcast) => StoredBroadcast],
    ),
  ];
  for (const [what, base, change] of changes)
    it(`changes with ${what}`, () => {
      expect(broadcastVersion(change(base))).not.toBe(broadcastVersion(base));
    });

  it('does not change with what recipients do not get: the name, status, approval, counts', () => {
    const v = broadcastVersion(EMAIL);
    const approved: StoredBroadcast = {
      ...EMAIL,
      name: 'Renamed',
      status: 'sending',
      updatedAt: '2026-11-03T09:00:00-06:00',
      approvedBy: 'admin',
      approvedVersion: v,
      run: { ...EMAIL.run, recipients: 13, segments: 40, startedAt: at },
    };
    expect(broadcastVersion(approved)).toBe(v);
  });

  it('every stored field is either versioned or named as not what recipients get', () => {
    const listed = [...VERSIONED_FIELDS, ...UNVERSIONED_FIELDS].sort();
    expect(listed).toEqual(Object.keys(StoredBroadcastSchema.shape).sort());
  });
});
