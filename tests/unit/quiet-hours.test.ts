import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { nanpZoneTable, renderNanpZones } from '../../scripts/lib/nanp-zones.mts';
import {
  bucketOpen,
  DEFAULT_SEND_WINDOW,
  insideRecipientWindow,
  nextOpening,
  parseSendWindow,
  recipientZones,
  zoneBucket,
} from '../../src/lib/server/texting/quiet-hours.ts';
import { compliantText } from '../../src/lib/text-compliance.ts';

/** docs/decisions/151-texting.md */
describe('area code to zone (Google libphonenumber’s map, generated)', () => {
  it('the committed table is exactly what the generator derives from the installed data', async () => {
    const committed = await readFile('src/lib/server/texting/nanp-zones.ts', 'utf8');
    expect(committed).toBe(renderNanpZones(await nanpZoneTable()));
  });

  it.each([
    ['+15045550100', ['America/Chicago']], // New Orleans
    ['+12125550100', ['America/New_York']],
    ['+13125550100', ['America/Chicago']],
    ['+13035550100', ['America/Denver']],
    ['+16025550100', ['America/Phoenix']], // Arizona: no daylight saving
    ['+15205550100', ['America/Phoenix']],
    ['+12135550100', ['America/Los_Angeles']],
    ['+18085550100', ['Pacific/Honolulu']],
    ['+19075550100', ['America/Adak', 'America/Anchorage']], // Alaska: both zones
    // South Dakota straddles Mountain and Central (the map names the latter North Dakota's): both kept.
    ['+16055550100', ['America/Denver', 'America/North_Dakota/Center']],
  ])('%s is in %j', (phone, zones) => {
    const r = recipientZones(phone);
    expect(r.known).toBe(true);
    expect(r.zones).toEqual(zones);
  });

  it('split area codes use the exchange where the map has one (Idaho 208)', () => {
    expect(recipientZones('+12083200000')).toEqual({
      zones: ['America/Boise', 'America/Los_Angeles'],
      known: true,
    });
    // Southern Idaho's exchanges are Mountain, the panhandle's Pacific: the exchange decides.
    expect(recipientZones('+12084400000').zones).toEqual(['America/Denver']);
    expect(recipientZones('+12084370000').zones).toEqual(['America/Los_Angeles']);
  });

  it('an unknown number gets the campaign’s zone, marked unknown', () => {
    expect(recipientZones('+447911123456')).toEqual({ zones: ['America/Chicago'], known: false });
    expect(zoneBucket(recipientZones('+447911123456'))).toBe('unknown');
  });
});

describe('the send window', () => {
  it('defaults to 9-20, is configurable and never wider than 8-21', () => {
    expect(parseSendWindow(undefined)).toEqual(DEFAULT_SEND_WINDOW);
    expect(parseSendWindow('10-18')).toEqual({ fromHour: 10, untilHour: 18 });
    expect(parseSendWindow('6-23')).toEqual({ fromHour: 8, untilHour: 21 });
    expect(parseSendWindow('20-9')).toEqual(DEFAULT_SEND_WINDOW);
    expect(parseSendWindow('nonsense')).toEqual(DEFAULT_SEND_WINDOW);
  });

  const w = DEFAULT_SEND_WINDOW;
  it('follows each recipient’s local time, daylight saving included (Arizona has none)', () => {
    // 2025-07-01 15:30 UTC: 11:30 New York, 10:30 Chicago, 9:30 Denver, 8:30 Phoenix (MST all year), 8:30 LA, 5:30 Honolulu.
    const july = new Date('2025-07-01T15:30:00Z');
    expect(insideRecipientWindow(july, '+12125550100', w)).toBe(true);
    expect(insideRecipientWindow(july, '+13035550100', w)).toBe(true);
    expect(insideRecipientWindow(july, '+16025550100', w)).toBe(false);
    expect(insideRecipientWindow(july, '+12135550100', w)).toBe(false);
    expect(insideRecipientWindow(july, '+18085550100', w)).toBe(false);
    // 2025-01-15 16:30 UTC: Denver 9:30 (MST), Phoenix 9:30 (MST): the same hour in winter.
    const jan = new Date('2025-01-15T16:30:00Z');
    expect(insideRecipientWindow(jan, '+16025550100', w)).toBe(true);
    expect(insideRecipientWindow(jan, '+13035550100', w)).toBe(true);
    // The window closes at 20:00 sharp: 19:59 in, 20:00 out (New York, summer).
    expect(insideRecipientWindow(new Date('2025-07-01T23:59:00Z'), '+12125550100', w)).toBe(true);
    expect(insideRecipientWindow(new Date('2025-07-02T00:00:00Z'), '+12125550100', w)).toBe(false);
  });

  it('on the daylight-saving change, the local hour decides (New York, 2025-03-09)', () => {
    // 13:00 UTC is 9:00 EDT (after the change at 2:00 local): open; an hour earlier it is 7:00 EST.
    expect(insideRecipientWindow(new Date('2025-03-09T13:00:00Z'), '+12125550100', w)).toBe(true);
    expect(insideRecipientWindow(new Date('2025-03-09T12:00:00Z'), '+12125550100', w)).toBe(false);
  });

  it('a number in two zones waits until the window is open in both', () => {
    const alaska = zoneBucket(recipientZones('+19075550100'));
    // 2025-07-01 17:30 UTC: Anchorage 9:30 AKDT, Adak 8:30 HDT: closed.
    expect(bucketOpen(new Date('2025-07-01T17:30:00Z'), alaska, w)).toBe(false);
    expect(bucketOpen(new Date('2025-07-01T18:30:00Z'), alaska, w)).toBe(true);
  });

  it('an unknown zone gets the narrowest window even when a wider one is configured', () => {
    const wide = parseSendWindow('8-21');
    // 14:30 UTC in July is 9:30 Chicago... and 8:30 at 13:30: open for a known Chicago number, not for an unknown one.
    const t = new Date('2025-07-01T13:30:00Z');
    expect(insideRecipientWindow(t, '+15045550100', wide)).toBe(true);
    expect(insideRecipientWindow(t, '+447911123456', wide)).toBe(false);
  });

  it('says when a closed bucket opens next', () => {
    const t = new Date('2025-07-01T03:00:00Z'); // 22:00 Chicago
    expect(nextOpening(t, 'America:Chicago', w)?.toISOString()).toBe('2025-07-01T14:00:00.000Z');
  });
});

describe('every text names the campaign and says how to stop, in the recipient’s language', () => {
  it('adds what is missing, keeps what is there', () => {
    expect(compliantText('Vote today!', 'en')).toBe('Avery for Mayor: Vote today! Reply STOP to opt out.');
    expect(compliantText('¡Vote hoy!', 'es')).toBe(
      'Avery for Mayor: ¡Vote hoy! Responda ALTO para cancelar.',
    );
    const full = 'Avery for Mayor: polls open 7-8. Reply STOP to opt out.';
    expect(compliantText(full, 'en')).toBe(full);
  });
});
