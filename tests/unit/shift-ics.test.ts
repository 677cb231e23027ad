import { describe, expect, it } from 'vitest';
import { buildCalendar, escapeText } from '../../src/lib/ics.ts';
import type { PublicEvent } from '../../src/lib/schemas/event.ts';
import { shiftIcsPath, type ShiftSlot } from '../../src/lib/schemas/shifts.ts';
import { shiftIcsEvent } from '../../src/lib/server/public/shift-calendar.ts';

/*
 * A shift's calendar file (docs/decisions/181-shifts.md): whatever staff typed into an event's title or a slot's
 * label is TEXT escaped per RFC 5545 3.3.11, so it can never end the event, add a property or a second event.
 */

const NOW = new Date('2030-06-03T12:00:00-05:00');
const event = {
  id: 41,
  title: 'Poll Watch, Ward 4; bring water',
  description: 'Line one\nEND:VEVENT\nBEGIN:VEVENT\nSUMMARY:Injected',
  location: '1000 Canal St',
} as PublicEvent;
const slot: ShiftSlot = {
  id: 'city-hall-2030-06-04-0700',
  date: '2030-06-04',
  start: '07:00',
  end: '10:30',
  capacity: 4,
  siteId: 'city-hall',
  label: 'City Hall\r\nLOCATION:Nowhere\\; \u0007bell',
};

const ics = buildCalendar([shiftIcsEvent(event, slot, 'https://example.org/events/41')], {
  name: 'Avery for Mayor: Shifts',
  uidHost: 'example.org',
  now: NOW,
});
const lines = ics.replace(/\r\n /g, '').split('\r\n');

describe('a shift as an .ics', () => {
  it('escapes backslash, semicolon, comma, newlines and drops control characters', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf\u0000g\u001bh\ti')).toBe('a\\\\b\\;c\\,d\\ne\\nfgh\ti');
  });

  it("is one event at the slot's own hours, whatever staff typed", () => {
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('SUMMARY:'))).toEqual([
      'SUMMARY:Poll Watch\\, Ward 4\\; bring water (City Hall\\nLOCATION:Nowhere\\\\\\; bell)',
    ]);
    expect(lines.filter((l) => l.startsWith('LOCATION:'))).toEqual([
      'LOCATION:City Hall\\nLOCATION:Nowhere\\\\\\; bell',
    ]);
    expect(lines).toContain('DESCRIPTION:Line one\\nEND:VEVENT\\nBEGIN:VEVENT\\nSUMMARY:Injected');
    expect(lines).toContain('DTSTART;TZID=America/Chicago:20300604T070000');
    expect(lines).toContain('DTEND;TZID=America/Chicago:20300604T103000');
    expect(lines).toContain('UID:shift-41-city-hall-2030-06-04-0700@example.org');
    expect(ics).not.toContain('\u0007');
  });

  it('has a path per language', () => {
    expect(shiftIcsPath(41, 'a-b', 'en')).toBe('/events/41/shifts/a-b.ics');
    expect(shiftIcsPath(41, 'a-b', 'es')).toBe('/es/events/41/shifts/a-b.ics');
  });
});
