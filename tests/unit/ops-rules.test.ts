import { describe, expect, it } from 'vitest';
import { attributionOf, rememberAttribution, withAttribution } from '../../src/lib/client/attribution.ts';
import { buildDonationUrl } from '../../src/lib/donate.ts';
import type { RosterEntry } from '../../src/lib/schemas/rsvp.ts';
import { counts, place, promote, waitlistPosition } from '../../src/lib/server/events/roster.ts';

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
}

describe('attribution within a visit', () => {
  it('keeps only refcode and utm_* of a landing page and hands them to /donate', () => {
    expect(attributionOf('?refcode=yard-1&utm_source=qr&page=2')).toBe('refcode=yard-1&utm_source=qr');
    const s = memoryStorage();
    rememberAttribution('?refcode=yard-1&utm_medium=print', s);
    rememberAttribution('?nothing=here', s); // an untagged page does not erase it
    expect(withAttribution('?amount=50', s, '')).toBe('?amount=50&refcode=yard-1&utm_medium=print');
    // /donate's own tags win over the remembered ones.
    expect(withAttribution('?refcode=email', s, '')).toBe('?refcode=email');
    expect(withAttribution('', memoryStorage(), '')).toBe('');
  });

  it("takes the tags of the same-site page the visitor came from before the visit's remembered ones", () => {
    // A tagged landing page left before its script ran (it loads after the first paint) remembered nothing.
    expect(withAttribution('?amount=25', memoryStorage(), '?refcode=door-3&lang=es')).toBe(
      '?amount=25&refcode=door-3',
    );
    const s = memoryStorage();
    rememberAttribution('?refcode=older', s);
    expect(withAttribution('', s, '?utm_source=flyer')).toBe('?utm_source=flyer');
    expect(withAttribution('', s, '?page=2')).toBe('?refcode=older'); // an untagged referrer changes nothing
  });

  it('UTM tags also travel as refcode_utm_* so ActBlue reports them back', () => {
    const url = new URL(
      buildDonationUrl({
        baseUrl: 'https://secure.actblue.com/donate/x',
        amount: null,
        pageSearch: '?utm_source=qr&refcode=a',
      })!,
    );
    expect(url.searchParams.get('utm_source')).toBe('qr');
    expect(url.searchParams.get('refcode_utm_source')).toBe('qr');
    expect(url.searchParams.get('refcode')).toBe('a');
  });
});

const entry = (id: string, seats: number, status: RosterEntry['status']): RosterEntry => ({
  id,
  seats,
  status,
  at: '2025-09-01T00:00:00.000Z',
  promotedAt: null,
  cancelledAt: null,
});

describe('roster allocation', () => {
  it('places parties until full, never splitting one, and counts seats with guests', () => {
    const entries: RosterEntry[] = [];
    expect(place(entries, { id: 'a', seats: 3, at: 't' }, 4).status).toBe('going');
    expect(place(entries, { id: 'b', seats: 2, at: 't' }, 4).status).toBe('waitlisted');
    expect(place(entries, { id: 'c', seats: 1, at: 't' }, 4).status).toBe('going');
    expect(place(entries, { id: 'd', seats: 1, at: 't' }, 4).status).toBe('waitlisted');
    expect(counts(entries)).toEqual({ goingSeats: 4, goingPeople: 2, waitlistedPeople: 2 });
    expect(waitlistPosition(entries, 'd')).toBe(2);
    expect(waitlistPosition(entries, 'a')).toBeNull();
  });

  it('a freed seat goes to the first waitlisted party that fits; unlimited means everyone goes', () => {
    const entries = [entry('a', 1, 'going'), entry('b', 3, 'waitlisted'), entry('c', 1, 'waitlisted')];
    entries[0]!.status = 'cancelled';
    expect(promote(entries, 2, 'now')).toEqual(['c']);
    expect(promote(entries, 4, 'now')).toEqual(['b']);
    expect(place([], { id: 'z', seats: 6, at: 't' }, null).status).toBe('going');
  });

  it('raising the capacity serves the waitlist before a newcomer', () => {
    const entries = [entry('a', 1, 'going'), entry('b', 1, 'waitlisted')];
    const r = place(entries, { id: 'c', seats: 1, at: 't' }, 2);
    expect(r).toEqual({ status: 'waitlisted', promoted: ['b'] });
  });
});

describe('outreach links', () => {
  it('builds the page URL with refcode and UTM tags, refusing codes ActBlue would not keep', async () => {
    const { buildOutreachUrl, linkErrors, qrFileName } = await import('../../src/lib/outreach-links.ts');
    const tags = { refcode: 'yard-sign_7', utmSource: 'print', utmMedium: 'yard sign', utmCampaign: '' };
    expect(buildOutreachUrl('https://averyformayor.com', 'donate', tags)).toBe(
      'https://averyformayor.com/donate?refcode=yard-sign_7&utm_source=print&utm_medium=yard+sign',
    );
    expect(buildOutreachUrl('https://averyformayor.com', 'home', { ...tags, refcode: '' })).toBe(
      'https://averyformayor.com/?utm_source=print&utm_medium=yard+sign',
    );
    expect(linkErrors(tags)).toEqual({});
    expect(linkErrors({ ...tags, refcode: 'has space' }).refcode).toBeTruthy();
    expect(linkErrors({ ...tags, utmSource: '<script>' }).utmSource).toBeTruthy();
    expect(qrFileName('volunteer', 'door/hanger', 'png')).toBe('qr-volunteer-doorhanger.png');
  });

  it('takes Unicode letters in UTM values, NFC-normalised and percent-encoded as UTF-8 in the link', async () => {
    const { buildOutreachUrl, linkErrors } = await import('../../src/lib/outreach-links.ts');
    const tags = {
      refcode: 'new-year',
      utmSource: 'Tết',
      utmMedium: 'radio',
      utmCampaign: ' Año  Nuevo 2027 ',
    };
    expect(linkErrors(tags)).toEqual({});
    const url = buildOutreachUrl('https://averyformayor.com', 'donate', tags);
    expect(url).toBe(
      'https://averyformayor.com/donate?refcode=new-year&utm_source=T%E1%BA%BFt&utm_medium=radio&utm_campaign=A%C3%B1o+Nuevo+2027',
    );
    expect(new URL(url).searchParams.get('utm_campaign')).toBe('Año Nuevo 2027');
    // "ñ" typed as n + a combining tilde gives the same link as the precomposed letter.
    const decomposed = { ...tags, utmCampaign: 'An\u0303o Nuevo 2027', utmSource: 'Tết'.normalize('NFD') };
    expect(linkErrors(decomposed)).toEqual({});
    expect(buildOutreachUrl('https://averyformayor.com', 'donate', decomposed)).toBe(url);
    for (const bad of ['🎉 party', '<b>', 'a&b', 'x'.repeat(101)])
      expect(linkErrors({ ...tags, utmCampaign: bad }).utmCampaign).toBeTruthy();
  });
});
