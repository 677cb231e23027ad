import { electionStage, formsClosed, siteMode, type ClosableForm } from '../../election-stage.ts';
import { HttpError } from '../errors.ts';
import { getElectionCalendar } from './calendar.ts';

/*
 * Sign-ups the post-election mode closed (docs/decisions/157-election-calendar.md) are refused by the server too,
 * at the moment of the post, so a page built before the mode changed (a cached copy, a tab left open) cannot take
 * one: 410 with a clear message, nothing stored. One read of the calendar record per post.
 */

export const FORM_CLOSED_MESSAGES: Record<ClosableForm, string> = {
  volunteer:
    'The campaign has ended, so volunteer sign-up is closed. Thank you! Stay in touch through our newsletter.',
  'text-signup':
    'The campaign has ended, so text sign-up is closed. Thank you! Stay in touch through our newsletter.',
};

export async function assertFormOpen(form: ClosableForm, now = new Date()): Promise<void> {
  const { calendar } = await getElectionCalendar();
  if (formsClosed(siteMode(electionStage(calendar, now))))
    throw new HttpError(410, FORM_CLOSED_MESSAGES[form]);
}
