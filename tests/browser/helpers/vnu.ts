import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/* The Nu Html Checker (vnu-jar, run with Java): validators.test.ts and its own unit test. */

const run = promisify(execFile);
export const VNU_JAR = join(process.cwd(), 'node_modules', 'vnu-jar', 'build', 'dist', 'vnu.jar');

export interface VnuMessage {
  type: string;
  url: string;
  message: string;
  extract?: string;
}

/**
 * Runs vnu.jar once over many files; returns its error messages. A checker that cannot start
 * (no Java, no jar) or says nothing throws: a validator that did not run fails the test, it never
 * passes having checked nothing (docs/decisions/163-tests.md).
 */
export async function vnu(files: string[], java = 'java'): Promise<VnuMessage[]> {
  // vnu skips a file that is not there without a word: check first.
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length) throw new Error(`the Nu Html Checker was given missing files: ${missing.join(', ')}`);
  if (!files.length) throw new Error('the Nu Html Checker was given no files');
  let output: string;
  try {
    const r = await run(java, ['-jar', VNU_JAR, '--format', 'json', '--errors-only', ...files], {
      maxBuffer: 32 * 1024 * 1024,
    });
    output = r.stderr || r.stdout;
  } catch (err) {
    // vnu exits 1 when it found errors, with the report on stderr; anything else is a failure to run.
    const e = err as { code?: unknown; stderr?: string; message?: string };
    if (e.code !== 1 || !e.stderr?.trim())
      throw new Error(`the Nu Html Checker did not run: ${e.message}`, { cause: err });
    output = e.stderr;
  }
  let report: { messages?: VnuMessage[] };
  try {
    report = JSON.parse(output) as { messages?: VnuMessage[] };
  } catch (cause) {
    throw new Error(`the Nu Html Checker gave no report: ${output.slice(0, 500)}`, { cause });
  }
  if (!Array.isArray(report.messages)) throw new Error(`the Nu Html Checker gave no messages: ${output}`);
  // A file it could not read is reported as a non-document error: that is a failure too.
  return report.messages.filter((m) => m.type === 'error' || m.type === 'non-document-error');
}
