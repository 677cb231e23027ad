import { mapLink, type ElectionCalendar, type VotingSite } from '../lib/election-stage.ts';

/*
 * The election calendar the site starts from (docs/decisions/157-election-calendar.md): the spec's October 11,
 * 2025 primary (Election Day, early voting September 27 - October 4), with Louisiana's published deadlines for
 * that election and Orleans Parish's early-voting sites. Staff replace it in the dashboard (stored in Blobs,
 * validated by src/lib/schemas/election.ts); this default is used when none is stored. Campaign dates and hours
 * (America/Chicago). Facts, not copy: no translation.
 */

export { mapLink };

const site = (id: string, name: string, address: string): VotingSite => ({
  id,
  name,
  address,
  mapUrl: mapLink(address),
});

const sites = [
  site('city-hall', 'City Hall, Room 1W24', '1300 Perdido St., New Orleans, LA 70112'),
  site('algiers-courthouse', 'Algiers Courthouse, Room 105', '225 Morgan St., New Orleans, LA 70114'),
  site(
    'chef-menteur',
    'Chef Menteur Voting Machine Warehouse',
    '8870 Chef Menteur Hwy., New Orleans, LA 70126',
  ),
  site('lake-vista', 'Lake Vista Community Center', '6500 Spanish Fort Blvd., New Orleans, LA 70124'),
] satisfies VotingSite[];

const allSites = sites.map((s) => s.id);
/** Louisiana's early voting: 8:30 AM - 6:00 PM, no voting on Sunday (September 28). */
const earlyDay = (date: string) => ({ date, open: '08:30', close: '18:00', sites: allSites });

export const defaultElectionCalendar = {
  sites,
  primary: {
    registration: {
      inPerson: { date: '2025-09-10', time: '16:30' },
      byMail: { date: '2025-09-10', time: '23:59' },
      online: { date: '2025-09-20', time: '23:59' },
    },
    mailBallot: {
      request: { date: '2025-10-07', time: '16:30' },
      return: { date: '2025-10-10', time: '16:30' },
    },
    earlyVoting: [
      '2025-09-27',
      '2025-09-29',
      '2025-09-30',
      '2025-10-01',
      '2025-10-02',
      '2025-10-03',
      '2025-10-04',
    ].map(earlyDay),
    electionDay: { date: '2025-10-11', open: '07:00', close: '20:00' },
    resultsDate: '2025-10-12',
  },
  mode: 'none',
  runoff: null,
} satisfies ElectionCalendar;
