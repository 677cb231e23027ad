import { describe, expect, it } from 'vitest';
import { buildCalendar, escapeText, foldLine, icsFileName, type IcsEvent } from '../../src/lib/ics.ts';

const NOW = new Date('2025-09-20T15:04:05.678Z');
const base: IcsEvent = {
  id: 7,
  title: 'Town Hall; Mid-City, Ward 4',
  description: 'Bring questions.\nFree parking, water provided',
  location: '1000 Canal St, New Orleans, LA',
  eventDate: '2025-10-01',
  startTime: '18:30',
  endTime: '20:00',
  registrationUrl: 'https://example.org/rsvp',
  updatedAt: '2025-09-18T12:00:00.000Z',
};

describe('ics', () => {
  it('escapes backslash, semicolon, comma and newlines', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });

  it('folds lines at 75 octets without splitting UTF-8 characters', () => {
    const line = `DESCRIPTION:${'é'.repeat(100)}`;
    const folded = foldLine(line);
    const parts = folded.split('\r\n');
    expect(parts.length).toBeGreaterThan(1);
    const enc = new TextEncoder();
    expect(enc.encode(parts[0] ?? '').length).toBeLessThanOrEqual(75);
    for (const p of parts.slice(1)) {
      expect(p.startsWith(' ')).toBe(true);
      expect(enc.encode(p).length).toBeLessThanOrEqual(75);
    }
    expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join('')).toBe(line);
    expect(foldLine('SHORT:x')).toBe('SHORT:x');
  });

  it('builds a CRLF calendar with a time zone and one VEVENT per event', () => {
    const ics = buildCalendar([base, { ...base, id: 8, endTime: '', registrationUrl: '' }], {
      name: 'Avery for Mayor Events',
      uidHost: 'example.org',
      now: NOW,
    });
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = ics.split('\r\n');
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines).toContain('VERSION:2.0');
    expect(lines).toContain('TZID:America/Chicago');
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    expect(lines).toContain('UID:event-7@example.org');
    expect(lines).toContain('DTSTAMP:20250920T150405Z');
    expect(lines).toContain('DTSTART;TZID=America/Chicago:20251001T183000');
    expect(lines).toContain('DTEND;TZID=America/Chicago:20251001T200000');
    expect(lines).toContain('DURATION:PT1H');
    expect(lines).toContain('SUMMARY:Town Hall\\; Mid-City\\, Ward 4');
    expect(lines).toContain('DESCRIPTION:Bring questions.\\nFree parking\\, water provided');
    expect(lines).toContain('URL:https://example.org/rsvp');
    expect(lines).toContain('LAST-MODIFIED:20250918T120000Z');
    expect(ics.match(/URL:/g)).toHaveLength(1);
    expect(lines.at(-2)).toBe('END:VCALENDAR');
    for (const l of lines) expect(new TextEncoder().encode(l).length).toBeLessThanOrEqual(75);
  });

  it('builds an empty but valid calendar', () => {
    const ics = buildCalendar([], { name: 'X', uidHost: 'h', now: NOW });
    expect(ics).toContain('BEGIN:VCALENDAR');
    expect(ics).not.toContain('BEGIN:VEVENT');
  });

  it('names downloads safely', () => {
    expect(icsFileName({ title: 'Town Hall: Ward 4!', eventDate: '2025-10-01' })).toBe(
      'town-hall-ward-4-2025-10-01.ics',
    );
    expect(icsFileName({ title: '***', eventDate: '2025-10-01' })).toBe('event-2025-10-01.ics');
  });
});

describe('the election in the feed', () => {
  it('each early-voting day with its sites, and Election Day with poll hours, with stable UIDs', async () => {
    const { electionIcsEvents } = await import('../../src/lib/election-ics.ts');
    const { defaultElectionCalendar } = await import('../../src/content/election-calendar.ts');
    const { icsWords } = await import('../../src/content/vote.ts');
    const entries = electionIcsEvents(defaultElectionCalendar, icsWords, 'https://www.example.org/vote');
    expect(entries).toHaveLength(8);
    expect(entries.at(-1)).toMatchObject({
      uid: 'election-primary-2025-10-11',
      title: 'Election Day: polls open',
      eventDate: '2025-10-11',
      startTime: '07:00',
      endTime: '20:00',
    });
    expect(entries[0]!.location).toContain('1300 Perdido St.');
    const ics = buildCalendar(entries, { name: 'X', uidHost: 'www.example.org', now: NOW });
    expect(ics).toContain('UID:election-primary-2025-10-11@www.example.org');
    expect(ics).toContain('DTSTART;TZID=America/Chicago:20251011T070000');
    expect(ics).toContain('DTEND;TZID=America/Chicago:20251011T200000');
  });
});
