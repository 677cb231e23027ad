import { buildElection, electionLines, type ElectionLines } from '../../../content/election-lines.ts';
import type { ElectionCalendar } from '../../election-stage.ts';
import type { Lang } from '../../lang.ts';
import { calendarWrites, getElectionCalendar } from './calendar.ts';

/*
 * The election a page renders (docs/decisions/157-election-calendar.md, "Which calendar a page reads"):
 *
 * - a page prerendered by a build: the build's calendar and moment (read once per build from the live site's
 *   API on Netlify), so every static page of a deploy shows one stage, and the stage job rebuilds when it moves;
 * - a page rendered on request (an on-demand page in production, every page under `astro dev`): the stored
 *   calendar, at the moment of the request: the record the endpoints read, so a page never offers a form the
 *   server then refuses (the "ended" mode showed /volunteer's form and refused it with 410), and locally a
 *   calendar edit reaches every page at once, as a rebuild does in production;
 * - a test or preview that fixes the moment (ELECTION_BUILD_NOW, with ELECTION_BUILD_CALENDAR's file): that
 *   calendar and moment, rendered on request or not (tests/pages/election-pages.test.ts walks them).
 */

export interface PageElection {
  lines: ElectionLines;
  calendar: ElectionCalendar;
  /** The moment the page speaks for. */
  now: Date;
}

/** Whether pages are rendered by the dev server (`astro dev`: every page on request). */
const devServer = (): boolean => import.meta.env.DEV && process.env.APP_ENV === 'development';

/**
 * The header, footer and body of one request read the record once: a read is reused for 2 seconds, or until this
 * process stores the calendar (an admin's save reaches their next page at once).
 */
const REUSE_MS = 2000;
let recent: { at: number; writes: number; read: ReturnType<typeof getElectionCalendar> } | null = null;
function storedCalendar(): ReturnType<typeof getElectionCalendar> {
  const now = Date.now();
  const writes = calendarWrites();
  if (!recent || now - recent.at > REUSE_MS || now < recent.at || recent.writes !== writes) {
    const read = getElectionCalendar();
    recent = { at: now, writes, read };
    // A failed read is not reused.
    read.catch(() => {
      if (recent?.read === read) recent = null;
    });
  }
  return recent.read;
}

export async function pageElection(lang: Lang, isPrerendered: boolean): Promise<PageElection> {
  const fixed = process.env.ELECTION_BUILD_NOW !== undefined;
  if (fixed || (isPrerendered && !devServer())) {
    const built = await buildElection();
    const now = isPrerendered ? built.now : new Date();
    return { lines: electionLines(built.calendar, now, lang), calendar: built.calendar, now };
  }
  const { calendar } = await storedCalendar();
  const now = new Date();
  return { lines: electionLines(calendar, now, lang), calendar, now };
}
