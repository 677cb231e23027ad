/**
 * npm run launch-check: prints what must still be replaced or set before the
 * site goes live, the same list a production build refuses on
 * (docs/decisions/085-launch-gate.md). Reads the environment it is run in
 * (export the site's variables into the shell first); exits 1 while anything
 * is missing, so it can gate a script or a CI job.
 */
import { launchCheckCli } from './lib/launch-gate.mts';
import { readLaunchContent } from '../src/lib/server/launch-content.ts';

process.exitCode = launchCheckCli(await readLaunchContent(), process.env, (m) => console.log(m));
