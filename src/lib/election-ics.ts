import type { ElectionCalendar, ElectionRound } from './election-stage.ts';
import type { IcsEvent } from './ics.ts';

/** The words of the election's calendar entries, in one language (src/content/vote.ts `icsWords`). */
export interface ElectionIcsWords {
  electionDay: string;
  runoffDay: string;
  earlyVoting: string;
  runoffEarlyVoting: string;
  /** The description: where to find sites and hours (the /vote page's URL is appended). */
  details: string;
}

/**
 * The election's dates as calendar entries for the events feed (docs/decisions/157-election-calendar.md): each
 * early-voting day (its hours, its sites as the location) and Election Day (poll hours), for the primary and, when
 * the mode is "runoff", the runoff. Stable UIDs (`election-{round}-{date}`), so an edited day updates in subscribers'
 * calendars rather than duplicating.
 */
export function electionIcsEvents(
  calendar: ElectionCalendar,
  words: ElectionIcsWords,
  voteUrl: string,
): IcsEvent[] {
  const rounds: [ElectionRound, 'primary' | 'runoff'][] = [[calendar.primary, 'primary']];
  if (calendar.mode === 'runoff' && calendar.runoff) rounds.push([calendar.runoff, 'runoff']);
  const siteNames = (ids: string[]) =>
    ids
      .map((id) => calendar.sites.find((s) => s.id === id))
      .filter((s) => s !== undefined)
      .map((s) => `${s.name}, ${s.address}`)
      .join('; ');
  const description = `${words.details} ${voteUrl}`;
  return rounds.flatMap(([round, which]) => [
    ...round.earlyVoting.map((day) => ({
      id: 0,
      uid: `election-${which}-early-${day.date}`,
      title: which === 'runoff' ? words.runoffEarlyVoting : words.earlyVoting,
      description,
      location: siteNames(day.sites),
      eventDate: day.date,
      startTime: day.open,
      endTime: day.close,
      registrationUrl: voteUrl,
    })),
    {
      id: 0,
      uid: `election-${which}-${round.electionDay.date}`,
      title: which === 'runoff' ? words.runoffDay : words.electionDay,
      description,
      location: '',
      eventDate: round.electionDay.date,
      startTime: round.electionDay.open,
      endTime: round.electionDay.close,
      registrationUrl: voteUrl,
    },
  ]);
}
