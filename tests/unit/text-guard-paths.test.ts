import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { describe, expect, it } from 'vitest';
import { phoneRefusal, phoneTypeAllowed } from '../../src/lib/server/texting/phone-policy.ts';

/**
 * SECURITY.md: "A test lists every code path that can send a text and fails if
 * one bypasses the guard" (docs/decisions/151-texting.md). The SMS
 * adapter's `sendSms` may be named only by the adapter and the text guard, and
 * Twilio's send call only by the adapter; every module that causes a text
 * reaches it through `sendGuardedText`, and those are listed here, so a new
 * path shows up as a failure until it is added on purpose.
 */
const ADAPTER = 'src/lib/server/adapters/sms.ts';
const GUARD = 'src/lib/server/texting/text-guard.ts';
/** Every module that sends a text (through the guard), and why. */
const TEXT_PATHS = {
  'src/lib/server/texting/text-signups.ts': 'the text sign-up confirmation (sendProgramText)',
  'src/lib/server/events/reminders.ts': 'RSVP reminder texts (the hourly job)',
  'src/lib/server/events/shift-notices.ts': "a shift's change or cancellation, as staff save it",
  'src/lib/server/vote-plans/reminders.ts': 'plan-to-vote reminder texts (the 15-minute job)',
  'src/lib/server/events/shift-sequence.ts':
    'the shifts’ sequence texts (the 5-minute job; docs/decisions/181-shifts.md)',
  'src/lib/server/broadcasts/engine.ts': 'staff broadcasts (the delivery job)',
  'src/lib/server/broadcasts/staff.ts':
    'a broadcast’s test text to the sender’s own verified phone (staff_test)',
  'src/lib/server/broadcasts/staff-phone.ts':
    'the code that verifies a staff member’s own phone (staff_phone_code; docs/decisions/152-broadcasts.md)',
  'src/lib/server/supporters/text-code.ts':
    'a supporter’s sign-in code to their own page (supporter_code; docs/decisions/182-supporter-page.md)',
};

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sources(path)));
    else if (/\.(ts|tsx|mts|mjs|js|astro)$/.test(entry.name) && !entry.name.endsWith('.test.ts'))
      out.push(path);
  }
  return out;
}

const files = async () => {
  const all = [...(await sources('src')), ...(await sources('netlify')), ...(await sources('scripts'))];
  return Promise.all(
    all.map(async (f) => ({ path: relative('.', f).replaceAll('\\', '/'), text: await readFile(f, 'utf8') })),
  );
};

describe('every text goes through the text guard', () => {
  it('only the guard names the adapter’s send function; only the adapter calls Twilio’s', async () => {
    const all = await files();
    const naming = all.filter((f) => /\bsendSms\b/.test(f.text)).map((f) => f.path);
    expect(naming.sort()).toEqual([ADAPTER, GUARD].sort());
    const twilioSend = all
      .filter((f) => /messages\s*\.\s*create\b|\.messages\(/.test(f.text))
      .map((f) => f.path);
    expect(twilioSend).toEqual([ADAPTER]);
  });

  it('the modules that send texts are exactly the listed ones, each through sendGuardedText', async () => {
    const all = await files();
    const senders = all
      .filter((f) => f.path !== GUARD && /\bsendGuardedText\b/.test(f.text))
      .map((f) => f.path);
    expect(senders.sort()).toEqual(Object.keys(TEXT_PATHS).sort());
  });
});

describe('numbers the campaign texts (phone-policy.ts)', () => {
  it('the loaded metadata (libphonenumber-js/min) tells number types apart', () => {
    expect(parsePhoneNumberFromString('+19005550123')?.getType()).toBe('PREMIUM_RATE');
    expect(parsePhoneNumberFromString('+15005550123')?.getType()).toBe('PERSONAL_NUMBER');
    expect(parsePhoneNumberFromString('+15045550161')?.getType()).toBe('FIXED_LINE_OR_MOBILE');
  });

  it.each([
    ['+19005550123', false], // premium rate
    ['+15049761234', false], // the 976 exchange: the metadata calls it fixed line or mobile
    ['+15005550123', false], // personal communication services
    ['+15335550123', false],
    ['+17105550123', false], // federal government
    ['+447911123456', true], // a UK mobile: a textable type (refused by country unless allowed)
    ['+15045550161', true],
    ['+18005550123', true], // toll-free numbers receive texts at the normal rate
  ])('%s is a textable type: %s', (phone, ok) => {
    expect(phoneTypeAllowed(phone)).toBe(ok);
  });

  it('the outside test’s numbers are all refused', () => {
    for (const phone of ['+447911123456', '+18765551234', '+882345678901', '+19005550123'])
      expect(phoneRefusal(phone)).not.toBeNull();
    expect(phoneRefusal('+15045550161')).toBeNull();
  });
});
