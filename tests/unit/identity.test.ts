import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paidForDisclaimer } from '../../src/content/campaign.ts';
import {
  EMAIL_CONSENT_TEXT,
  EMAIL_CONSENT_VERSION,
  SMS_CONSENT_TEXT,
  SMS_CONSENT_VERSION,
  smsConsentText,
} from '../../src/content/consent.ts';
import { DEFAULT_EVENTS_EMAIL, IDENTITY, paidForLine } from '../../src/content/identity.ts';
import { privacyPolicy, termsOfUse } from '../../src/content/legal.ts';
import { fingerprint } from '../../src/lib/fingerprint.ts';
import { confirmationText, helpText } from '../../src/content/sms-program.ts';

/** One module declares who the campaign is; everything derives from it. */

const committeeOfPaidFor = () => /^Paid for by (.+?)(?:, .*)?$/.exec(paidForDisclaimer)?.[1];

describe('one identity', () => {
  it('the SMS consent text names the committee of the paid-for line', () => {
    const committee = committeeOfPaidFor();
    expect(committee).toBe(IDENTITY.committeeName);
    expect(SMS_CONSENT_TEXT).toContain(`text messages from ${committee},`);
    expect(EMAIL_CONSENT_TEXT).toContain(`campaign emails from ${committee}.`);
  });

  it('a treasurer line goes after the committee', () => {
    expect(paidForLine({ committeeName: 'X for Mayor', treasurer: null })).toBe('Paid for by X for Mayor');
    expect(paidForLine({ committeeName: 'X for Mayor', treasurer: 'Pat Doe, Treasurer' })).toBe(
      'Paid for by X for Mayor, Pat Doe, Treasurer',
    );
  });

  it('changing the consent wording changes its version', () => {
    expect(SMS_CONSENT_VERSION.endsWith(`.${fingerprint(SMS_CONSENT_TEXT)}`)).toBe(true);
    expect(EMAIL_CONSENT_VERSION.endsWith(`.${fingerprint(EMAIL_CONSENT_TEXT)}`)).toBe(true);
    expect(fingerprint(smsConsentText('Someone Else for Mayor'))).not.toBe(fingerprint(SMS_CONSENT_TEXT));
    expect(fingerprint(`${SMS_CONSENT_TEXT} `)).not.toBe(fingerprint(SMS_CONSENT_TEXT));
    expect(fingerprint(SMS_CONSENT_TEXT)).toMatch(/^[0-9a-f]{8}$/);
  });

  it('texts, the event default, Terms and privacy policy use the same contact points', () => {
    expect(helpText()).toContain(IDENTITY.phone.display);
    expect(helpText()).toContain(IDENTITY.emails.general);
    expect(helpText()).toContain(IDENTITY.committeeName);
    expect(confirmationText()).toContain(IDENTITY.smsProgramName);
    expect(DEFAULT_EVENTS_EMAIL).toBe(IDENTITY.emails.events);
    const terms = JSON.stringify(termsOfUse);
    const privacy = JSON.stringify(privacyPolicy);
    expect(terms).toContain(IDENTITY.emails.general);
    expect(terms).toContain(IDENTITY.phone.display);
    expect(privacy).toContain(IDENTITY.emails.privacy);
    expect(terms).toContain(IDENTITY.committeeName);
  });

  it('placeholder mailboxes are on a reserved domain', () => {
    expect(IDENTITY.domain.endsWith('.example')).toBe(true);
    for (const email of Object.values(IDENTITY.emails))
      expect(email.endsWith(`@${IDENTITY.domain}`)).toBe(true);
    expect(IDENTITY.phone.e164).toMatch(/^\+1\d{3}55501\d{2}$/);
  });
});

const ROOTS = ['src', 'scripts', 'netlify'];
const SOURCE = /\.(ts|tsx|mts|mjs|astro)$/;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const PHONE = /\(\d{3}\)\s?\d{3}-\d{4}|\b\d{3}[.-]\d{3}-\d{4}\b|\+1\d{10}\b/g;
/** Documentation addresses (RFC 2606) in code comments and usage lines are not the campaign's. */
const DOCUMENTATION = /@example\.(com|org|net)$/;

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(path)));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

describe('no other module declares contact details', () => {
  it('emails, phone numbers, the office address and the domain appear only in src/content/identity.ts', async () => {
    const offenders: string[] = [];
    for (const root of ROOTS) {
      for (const file of await sourceFiles(root)) {
        const rel = relative('.', file);
        if (rel === join('src', 'content', 'identity.ts')) continue;
        const text = await readFile(file, 'utf8');
        for (const m of text.matchAll(EMAIL))
          if (!DOCUMENTATION.test(m[0])) offenders.push(`${rel}: ${m[0]}`);
        for (const m of text.matchAll(PHONE)) offenders.push(`${rel}: ${m[0]}`);
        for (const fact of [IDENTITY.domain, IDENTITY.address.street, IDENTITY.phone.display])
          if (text.includes(fact)) offenders.push(`${rel}: ${fact}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
