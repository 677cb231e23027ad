import { describe, expect, it } from 'vitest';
import { siteZip, zipOfAddress } from '../../src/lib/election-stage.ts';
import { ElectionCalendarSchema } from '../../src/lib/schemas/election.ts';
import { sitesFromCsv } from '../../src/lib/schemas/election-sites-csv.ts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import { nearestFirst, zipMiles } from '../../src/lib/server/people/zip-distance.ts';

/*
 * A site's ZIP and nearest first (docs/decisions/181-shifts.md, "Recruiting nearest first"): the ZIP staff gave,
 * else the address's trailing one; distances between ZIP centroids, unknown ZIPs last, ties in their order.
 */

describe("a site's ZIP", () => {
  it('is the trailing 5 digits of its address (ZIP+4 and a trailing period too), or none', () => {
    expect(zipOfAddress('1300 Perdido St., New Orleans, LA 70112')).toBe('70112');
    expect(zipOfAddress('225 Morgan St., New Orleans, LA 70114-2201')).toBe('70114');
    expect(zipOfAddress('8870 Chef Menteur Hwy., New Orleans, LA 70126. ')).toBe('70126');
    // A house number is not a ZIP; nor are 6 or 4 digits at the end.
    expect(zipOfAddress('70112 Perdido St., New Orleans, LA')).toBeNull();
    expect(zipOfAddress('Suite 701123')).toBeNull();
    expect(zipOfAddress('Room 7011')).toBeNull();
    expect(zipOfAddress('')).toBeNull();
  });

  it('is the one given when given, else the address', () => {
    expect(siteZip({ address: 'Canal St., New Orleans, LA 70112', zip: '70130' })).toBe('70130');
    expect(siteZip({ address: 'Canal St., New Orleans, LA 70112' })).toBe('70112');
    expect(siteZip({ address: 'Canal St., New Orleans' })).toBeNull();
    expect(defaultElectionCalendar.sites.map(siteZip)).toEqual(['70112', '70114', '70126', '70124']);
  });

  it('is 5 digits when given: anything else is refused with the field named', () => {
    const site = { ...defaultElectionCalendar.sites[0]!, zip: '7011' };
    const r = ElectionCalendarSchema.safeParse({ ...defaultElectionCalendar, sites: [site] });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toContainEqual([
      'sites.0.zip',
      'A ZIP is 5 digits',
    ]);
  });
});

describe('a ZIP from the sites CSV', () => {
  it('is an optional column: given, it is checked; empty or absent, the address gives it', () => {
    const csv = (rows: string) => sitesFromCsv(`id,name,address,zip\n${rows}`);
    expect(
      csv('a,A,"1 Canal St., New Orleans, LA 70112",70130\nb,B,"2 Canal St., New Orleans, LA 70112",'),
    ).toEqual({
      sites: [
        expect.objectContaining({ id: 'a', zip: '70130' }),
        expect.not.objectContaining({ zip: expect.anything() as unknown }),
      ],
    });
    expect(csv('a,A,"1 Canal St.",7013')).toEqual({
      problems: [{ row: 2, message: 'zip: A ZIP is 5 digits' }],
    });
    expect(sitesFromCsv('id,name,address\na,A,"1 Canal St., New Orleans, LA 70112"')).toMatchObject({
      sites: [{ id: 'a' }],
    });
  });
});

describe('nearest first', () => {
  const people = [
    { n: 'unknown', zip: null },
    { n: 'slidell', zip: '70458' },
    { n: 'notInData', zip: '00000' },
    { n: 'midCity', zip: '70119' },
    { n: 'cbd', zip: '70112-1234' },
    { n: 'midCity2', zip: '70119' },
  ];
  it('orders by the miles between centroids, unknown ZIPs last, ties in their order', async () => {
    expect(await zipMiles('70112', '70112')).toBe(0);
    expect(await zipMiles('70112', '00000')).toBeNull();
    expect((await nearestFirst('70112', people, (p) => p.zip)).map((p) => p.n)).toEqual([
      'cbd',
      'midCity',
      'midCity2',
      'slidell',
      'unknown',
      'notInData',
    ]);
  });
  it('leaves the order as it is without a known ZIP to measure from', async () => {
    expect(await nearestFirst(null, people, (p) => p.zip)).toEqual(people);
    expect(await nearestFirst('00000', people, (p) => p.zip)).toEqual(people);
  });
});
