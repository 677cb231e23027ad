/**
 * npm run launch-check: prints what must still be replaced or set before the
 * site goes live, the same list a production build refuses on
 * (docs/decisions/085-launch-gate.md), plus the election calendar: one whose
 * election is over is flagged. Reads the environment it is run in (export the
 * site's variables into the shell first); exits 1 while anything is missing, so
 * it can gate a script or a CI job.
 *
 * The calendar is the site's own, read through the election calendar module:
 * with NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN set, the deployed site's store;
 * with `--local`, the dev server's store; otherwise the seeded calendar the
 * first deploy starts from (src/content/election-calendar.ts).
 */
import { connectBlobs } from './lib/connect.mts';
import { launchCheckCli } from './lib/launch-gate.mts';
import { defaultElectionCalendar } from '../src/content/election-calendar.ts';
import type { ElectionCalendar } from '../src/lib/election-stage.ts';
import { getElectionCalendar } from '../src/lib/server/election/calendar.ts';
import { readLaunchContent } from '../src/lib/server/launch-content.ts';

const local = process.argv.includes('--local');
const remote = Boolean(process.env.NETLIFY_SITE_ID && process.env.NETLIFY_AUTH_TOKEN);
let calendar: ElectionCalendar = defaultElectionCalendar;
if (local || remote) {
  const disconnect = await connectBlobs(local);
  try {
    calendar = (await getElectionCalendar()).calendar;
  } finally {
    await disconnect();
  }
} else {
  console.log(
    "Election calendar: the seeded one (set NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN to check the site's own, or pass --local).",
  );
}

process.exitCode = launchCheckCli(await readLaunchContent(), process.env, (m) => console.log(m), {
  calendar,
  now: new Date(),
});
