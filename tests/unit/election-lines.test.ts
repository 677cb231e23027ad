import { describe, expect, it } from 'vitest';
import { defaultElectionCalendar } from '../../src/content/election-calendar';
import { electionLines } from '../../src/content/election-lines';
import type { ElectionCalendar } from '../../src/lib/election-stage';
import { RUNOFF_2025 } from '../helpers/election';

/*
 * What the footer, the Contact FAQ, the countdown, the stage line, the navigation and the phase timeline say at each
 * stage of the seeded 2025 calendar, in English and Spanish (docs/decisions/157-election-calendar.md). Campaign
 * time in Sept-Oct 2025 is CDT (UTC-5).
 */
const cal = defaultElectionCalendar as ElectionCalendar;
const cdt = (local: string) => new Date(`${local}:00-05:00`);
const footer = (at: Date, lang: 'en' | 'es' = 'en', c = cal) =>
  electionLines(c, at, lang).footer.map((l) => `${l.label} ${l.value}`);

describe('election copy follows the stage', () => {
  it('the spec’s day: the spec’s footer and FAQ, present tense, registration open, GOTV active', () => {
    const l = electionLines(cal, cdt('2025-09-17T12:00'), 'en');
    expect(footer(cdt('2025-09-17T12:00'))).toEqual([
      'Election Day: October 11, 2025',
      'Early Voting: September 27 - October 4',
    ]);
    expect(l.faqAnswer).toBe('Election Day is October 11, 2025. Early voting runs September 27 - October 4.');
    expect(l.countdown).toBe('24 days to Election Day');
    expect(l.headline).toBe('Register to vote by September 20, 2025, then make a plan to vote.');
    expect(l.voteInNav).toBe(false);
    expect(l.phaseStatuses).toEqual(['completed', 'completed', 'active']);
    const es = electionLines(cal, cdt('2025-09-17T12:00'), 'es');
    expect(es.footer.map((x) => `${x.label} ${x.value}`)).toEqual([
      'Día de la elección: 11 de octubre de 2025',
      'Votación anticipada: Del 27 de septiembre al 4 de octubre',
    ]);
    expect(es.faqAnswer).toBe(
      'El día de la elección es el 11 de octubre de 2025. La votación anticipada es del 27 de septiembre al 4 de octubre.',
    );
    expect(es.countdown).toBe('Faltan 24 días para la elección');
  });

  it('registration closed, then early voting day by day with today’s hours (the Sunday gap says when it continues)', () => {
    expect(electionLines(cal, cdt('2025-09-21T09:00'), 'en')).toMatchObject({
      headline: 'Registration has closed. Early voting starts September 27, 2025.',
      voteInNav: true,
    });
    expect(electionLines(cal, cdt('2025-09-27T09:00'), 'en').headline).toBe(
      'Early voting is open today, 8:30 AM to 6:00 PM.',
    );
    expect(electionLines(cal, cdt('2025-09-27T18:00'), 'en').headline).toBe(
      'Early voting continues September 29, 2025.',
    );
    expect(electionLines(cal, cdt('2025-09-28T12:00'), 'es').headline).toBe(
      'La votación anticipada continúa el 29 de septiembre de 2025.',
    );
  });

  it('after early voting: its line turns past tense, Election Day’s stays present', () => {
    const at = cdt('2025-10-05T10:00');
    expect(footer(at)).toEqual([
      'Election Day: October 11, 2025',
      'Early voting ran September 27 - October 4',
    ]);
    const l = electionLines(cal, at, 'en');
    expect(l.faqAnswer).toBe('Election Day is October 11, 2025. Early voting ran September 27 - October 4.');
    expect(l.headline).toBe(
      'Early voting is over. Polls are open on October 11, 2025 from 7:00 AM to 8:00 PM.',
    );
    expect(l.countdown).toBe('6 days to Election Day');
  });

  it('Election Day: polls open until 8:00 PM, then closed at the minute; the morning after, past tense everywhere', () => {
    const open = electionLines(cal, cdt('2025-10-11T19:59'), 'en');
    expect(open).toMatchObject({
      countdown: 'Today is Election Day',
      headline: 'Polls are open today until 8:00 PM. If you are in line by 8:00 PM, you can vote.',
      voteInNav: true,
    });
    const closed = electionLines(cal, cdt('2025-10-11T20:00'), 'en');
    expect(closed).toMatchObject({
      countdown: null,
      headline: 'Polls have closed. Results are being counted.',
      voteInNav: false,
    });
    expect(closed.phaseStatuses).toEqual(['completed', 'completed', 'completed']);
    expect(footer(cdt('2025-10-11T20:00'))).toEqual([
      'Election Day was October 11, 2025',
      'Early voting ran September 27 - October 4',
    ]);
    const after = electionLines(cal, cdt('2025-10-12T08:00'), 'en');
    expect(after.faqAnswer).toBe(
      'Election Day was October 11, 2025. Early voting ran September 27 - October 4.',
    );
    expect(after.headline).toBe('The election was held on October 11, 2025. Thank you for voting.');
  });

  it('today (2026-11-25): the election is over, in both languages, and no phase is "Active"', () => {
    const now = new Date('2026-11-25T16:00:00Z');
    const en = electionLines(cal, now, 'en');
    expect(en.footer[0]).toMatchObject({ label: 'Election Day was', value: 'October 11, 2025' });
    expect(en.phaseStatuses).not.toContain('active');
    const es = electionLines(cal, now, 'es');
    expect(es.footer.map((x) => `${x.label} ${x.value}`)).toEqual([
      'La elección fue el 11 de octubre de 2025',
      'La votación anticipada fue del 27 de septiembre al 4 de octubre',
    ]);
    expect(es.faqAnswer).toBe(
      'El día de la elección fue el 11 de octubre de 2025. La votación anticipada fue del 27 de septiembre al 4 de octubre.',
    );
  });

  it('each post-election mode has its own line', () => {
    const now = new Date('2026-11-25T16:00:00Z');
    expect(electionLines({ ...cal, mode: 'won' }, now, 'en').headline).toMatch(/^We won\./);
    expect(electionLines({ ...cal, mode: 'lost' }, now, 'en').headline).toMatch(/came up short/);
    expect(electionLines({ ...cal, mode: 'ended' }, now, 'es').headline).toBe(
      'La campaña ha terminado. Gracias por formar parte de ella.',
    );
  });

  it('a runoff: its own dates, labels and countdown', () => {
    const c: ElectionCalendar = { ...cal, mode: 'runoff', runoff: RUNOFF_2025 };
    const l = electionLines(c, cdt('2025-10-12T09:00'), 'en');
    expect(l.footer.map((x) => `${x.label} ${x.value}`)).toEqual([
      'Runoff Election Day: November 15, 2025',
      'Runoff early voting: November 1',
    ]);
    expect(l.countdown).toBe('34 days to the runoff');
    expect(l.headline).toBe('Register to vote by October 25, 2025, then make a plan to vote.');
    expect(l.phaseStatuses).toEqual(['completed', 'completed', 'completed']);
  });
});
