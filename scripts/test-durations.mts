/**
 * `node scripts/test-durations.mts <vitest JSON report>`: writes tests/durations.json, the seconds each test
 * file took in that run, which tests/sequencer.ts uses to start the longest files first on a clean clone (one
 * with no vitest cache). Make the report with `npx vitest run --reporter=default --reporter=json
 * --outputFile=/tmp/report.json`; refresh the file when files are added or change much
 * (docs/decisions/163-tests.md).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const [reportPath] = process.argv.slice(2);
if (!reportPath) {
  console.error('usage: node scripts/test-durations.mts <vitest JSON report>');
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8')) as {
  testResults: { name: string; startTime: number; endTime: number }[];
};
const seconds: Record<string, number> = {};
for (const file of report.testResults.toSorted((a, b) => a.name.localeCompare(b.name)))
  seconds[relative(process.cwd(), file.name)] = Math.max(
    1,
    Math.round((file.endTime - file.startTime) / 1000),
  );
writeFileSync('tests/durations.json', `${JSON.stringify(seconds, null, 2)}\n`);
console.log(`tests/durations.json: ${Object.keys(seconds).length} files`);
