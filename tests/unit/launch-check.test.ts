import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBuild, launchCheckCli, launchGate, LaunchGateError } from '../../scripts/lib/launch-gate.mts';
import { DEV_SESSION_SECRET, TURNSTILE_TEST_SECRET } from '../../src/lib/server/env.ts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import type { ElectionCalendar } from '../../src/lib/election-stage.ts';
import {
  calendarItems,
  contentItems,
  estimatedEntropyBits,
  isProductionBuild,
  launchItems,
  REQUIRED_SETTINGS,
  SECRET_MINIMUMS,
  settingItems,
  type LaunchContent,
  type LaunchEnv,
} from '../../src/lib/server/launch-check.ts';
import { readLaunchContent } from '../../src/lib/server/launch-content.ts';

/** The launch gate (docs/decisions/085-launch-gate.md). */

/** The site's content with every placeholder replaced, as a campaign would before launch. */
async function replacedContent(): Promise<LaunchContent> {
  const shipped = await readLaunchContent();
  return {
    ...shipped,
    identity: {
      candidateName: 'Pat Rivera',
      domain: 'riveraformayor.com',
      emails: { general: 'info@riveraformayor.com', press: 'press@riveraformayor.com' },
      phone: { display: '(504) 321-7788', e164: '+15043217788' },
      address: { street: '400 Poydras Street, Suite 12', city: 'New Orleans', stateCode: 'LA', zip: '70130' },
    },
    videoIds: ['dQw4w9WgXcQ', 'M7lc1UVf-VE'],
    images: shipped.images.map((i) => ({ ...i, sha256: 'a'.repeat(64) })),
  };
}

/** SendGrid's Event Webhook verification key: base64 DER of an EC P-256 public key. */
const SENDGRID_PUBLIC_KEY = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64');

/** Every setting a live site needs, set to real-looking values (secrets made as docs/deploy.md says). */
const READY_ENV: LaunchEnv = {
  APP_ENV: 'production',
  SITE_URL: 'https://riveraformayor.com',
  SESSION_SECRET: '4jrC+8E2xk6DdX+RqRuPb3kmshRnjanYJXPk1FDm2Sv3MGagEWcHC6dG/97tY+WW',
  SENDGRID_API_KEY: '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',
  EMAIL_FROM: 'no-reply@riveraformayor.com',
  CAMPAIGN_INBOX_EMAIL: 'team@riveraformayor.com',
  TWILIO_ACCOUNT_SID: 'ACd5ded6fb9c9458f96139da5e1e27816c',
  TWILIO_AUTH_TOKEN: '38a636675ba6ed1d116db53821f06478',
  TWILIO_MESSAGING_SERVICE_SID: 'MG5e11b7a23af46a3d46b42e2c6f2581b1',
  CAMPAIGN_VERIFY_TOKEN: 'cv|1.0|tcr|10dlc|9957c339-d46f-49c7-a399-5b7e5f8bd92e|GQ3EM4tYXbj1wFp0q2mcQ',
  SENDGRID_WEBHOOK_PUBLIC_KEY: SENDGRID_PUBLIC_KEY,
  TURNSTILE_SECRET_KEY: '0x4AAAAAAAreal-secret-value',
  PUBLIC_TURNSTILE_SITE_KEY: '0x4AAAAAAAreal-site-key',
  PUBLIC_DONATION_URL: 'https://secure.actblue.com/donate/rivera',
  PUBLIC_DONATION_URL_ES: 'https://secure.actblue.com/donate/rivera-es',
  ACTBLUE_WEBHOOK_USERNAME: '01b3dfb89c0b073484f9c3d7e7269a72f81faf6594372211',
  ACTBLUE_WEBHOOK_PASSWORD: '02e86ca06db92da6979db01eab5d60b9ac52ca02cdaa31a3',
  DONOR_KEY_SECRET: '8WyLvWNdU67/7ktn7Z8jUGHB4ZvPanBX9LTPZrA4k0STlAWwC+GEgzdosjIsQ0m+',
  BUILD_HOOK_URL: 'https://api.netlify.com/build_hooks/57868017305becd8856c14cc',
};

const keys = (items: { key: string }[]) => items.map((i) => i.key);

describe('launch check: content', () => {
  it('names every placeholder the site ships with', async () => {
    const items = contentItems(await readLaunchContent());
    expect(keys(items)).toEqual([
      'identity:candidate',
      'identity:emails',
      'identity:phone',
      'identity:address',
      'video:REPLACE-ME-01',
      'video:REPLACE-ME-02',
      'image:src/assets/candidate/portrait.jpg',
      'image:src/assets/posters/meet-the-candidate.jpg',
      'image:src/assets/posters/one-term-plan.jpg',
    ]);
    const text = items.map((i) => i.message).join('\n');
    expect(text).toContain('Jordan Avery');
    expect(text).toContain('averyformayor.example');
    expect(text).toContain('(504) 555-0125');
    expect(text).toContain('1000 Canal Street');
  });

  it('is empty once each is replaced', async () => {
    expect(contentItems(await replacedContent())).toEqual([]);
  });

  it('recognises a placeholder image by its bytes wherever it sits, and a non-YouTube video id', async () => {
    const content = await replacedContent();
    const portrait = (await readLaunchContent()).images.find((i) => i.path.endsWith('portrait.jpg'));
    expect(portrait).toBeDefined();
    const items = contentItems({
      ...content,
      videoIds: ['short', 'dQw4w9WgXcQ'],
      images: [{ path: 'src/assets/elsewhere/me.jpg', sha256: portrait?.sha256 ?? '' }],
    });
    expect(keys(items)).toEqual(['video:short', 'image:src/assets/elsewhere/me.jpg']);
  });
});

describe('launch check: settings', () => {
  it('names each missing setting, in docs/deploy.md\u2019s order', () => {
    expect(keys(settingItems({}))).toEqual([
      'setting:APP_ENV',
      'setting:SITE_URL',
      'setting:SESSION_SECRET',
      'setting:SENDGRID_API_KEY',
      'setting:EMAIL_FROM',
      'setting:CAMPAIGN_INBOX_EMAIL',
      'setting:TWILIO_ACCOUNT_SID',
      'setting:TWILIO_AUTH_TOKEN',
      'setting:TWILIO_MESSAGING_SERVICE_SID',
      'setting:CAMPAIGN_VERIFY_TOKEN',
      'setting:SENDGRID_WEBHOOK_PUBLIC_KEY',
      'setting:TURNSTILE_SECRET_KEY',
      'setting:PUBLIC_TURNSTILE_SITE_KEY',
      'setting:PUBLIC_DONATION_URL',
      'setting:PUBLIC_DONATION_URL_ES',
      'setting:ACTBLUE_WEBHOOK_USERNAME',
      'setting:ACTBLUE_WEBHOOK_PASSWORD',
      'setting:DONOR_KEY_SECRET',
      'setting:BUILD_HOOK_URL',
    ]);
  });

  it('is empty when every setting is real', () => {
    expect(settingItems(READY_ENV)).toEqual([]);
  });

  it('a from-number is no sender for a live site: texts go through the registered Messaging Service', () => {
    const items = settingItems({
      ...READY_ENV,
      TWILIO_MESSAGING_SERVICE_SID: undefined,
      TWILIO_FROM_NUMBER: '+15045550000',
    });
    expect(keys(items)).toEqual(['setting:TWILIO_MESSAGING_SERVICE_SID']);
  });

  it('refuses development and test values as well as missing ones', () => {
    const items = settingItems({
      ...READY_ENV,
      APP_ENV: 'development',
      SITE_URL: 'http://localhost:4321',
      SESSION_SECRET: DEV_SESSION_SECRET,
      TURNSTILE_SECRET_KEY: TURNSTILE_TEST_SECRET,
      PUBLIC_TURNSTILE_SITE_KEY: '1x00000000000000000000AA',
      EMAIL_FROM: 'no-reply@localhost',
      CAMPAIGN_INBOX_EMAIL: 'team@averyformayor.example',
      PUBLIC_DONATION_URL: 'http://donate.test/form',
    });
    expect(keys(items)).toEqual([
      'setting:APP_ENV',
      'setting:SITE_URL',
      'setting:SESSION_SECRET',
      'setting:EMAIL_FROM',
      'setting:CAMPAIGN_INBOX_EMAIL',
      'setting:TURNSTILE_SECRET_KEY',
      'setting:PUBLIC_TURNSTILE_SITE_KEY',
      'setting:PUBLIC_DONATION_URL',
    ]);
  });
});

/**
 * Bad values of every required setting, besides leaving it unset: development and test values, wrong shapes, and
 * weak secrets (one character, repeated characters, a password pattern, a value reused from another secret).
 */
const BAD_VALUES: Record<string, (string | ((env: LaunchEnv) => string))[]> = {
  APP_ENV: ['development', 'test'],
  SITE_URL: ['http://localhost:4321', 'https://averyformayor.example', 'riveraformayor.com'],
  SESSION_SECRET: [
    DEV_SESSION_SECRET,
    'Zq7x!',
    'aB3$eF6&hJ9*kL2#mN5@pQ8!rS4%tU7',
    'k'.repeat(48),
    'password1234'.repeat(3),
  ],
  SENDGRID_API_KEY: ['SG.key', 'x'],
  EMAIL_FROM: ['no-reply@localhost', 'no-reply'],
  CAMPAIGN_INBOX_EMAIL: ['team@averyformayor.example'],
  TWILIO_ACCOUNT_SID: ['AC0123', 'x'],
  TWILIO_AUTH_TOKEN: ['Zq7x!', 'x', '38a636675ba6ed1d116db53821f0647'],
  TWILIO_MESSAGING_SERVICE_SID: ['MG0123', '+15045550000'],
  CAMPAIGN_VERIFY_TOKEN: ['x', 'cv|1.0|tcr|10dlc', 'cv|1.0|tcr|10dlc||GQ3EM4tY', 'cv|1.0|tcr|10dlc|a|b|c'],
  SENDGRID_WEBHOOK_PUBLIC_KEY: ['x', Buffer.from('not a key at all').toString('base64')],
  TURNSTILE_SECRET_KEY: [TURNSTILE_TEST_SECRET, '2x0000000000000000000000000000000AA', 'secret'],
  PUBLIC_TURNSTILE_SITE_KEY: ['1x00000000000000000000AA', '3x00000000000000000000FF', 'key'],
  PUBLIC_DONATION_URL: ['http://donate.test/form', 'https://donate.example.org/form', 'not a url'],
  PUBLIC_DONATION_URL_ES: ['http://secure.actblue.com/donate/rivera-es', 'not a url'],
  ACTBLUE_WEBHOOK_USERNAME: ['u', 'actblue', 'u'.repeat(24)],
  ACTBLUE_WEBHOOK_PASSWORD: [
    'p',
    'aB3$eF6&hJ9*kL2#mN5@pQ8',
    'p'.repeat(24),
    'password1234password1234',
    (env) => env.ACTBLUE_WEBHOOK_USERNAME!,
  ],
  DONOR_KEY_SECRET: ['d', 'd'.repeat(48), 'abcdefabcdefabcdefabcdefabcdefab', (env) => env.SESSION_SECRET!],
  BUILD_HOOK_URL: [
    'http://api.netlify.com/build_hooks/57868017305becd8856c14cc',
    'https://api.netlify.com/build_hooks/',
    'https://hooks.example.com/build_hooks/57868017305becd8856c14cc',
  ],
};

const SECRET_VALUES = REQUIRED_SETTINGS.filter((s) => s.secret).map((s) => READY_ENV[s.name]!);

describe('npm run launch-check fails for each missing or weak required setting', () => {
  const cases = REQUIRED_SETTINGS.flatMap(({ name }) => [
    { name, label: 'unset', value: undefined as string | undefined },
    { name, label: 'empty', value: '' },
    ...(BAD_VALUES[name] ?? []).map((bad, i) => {
      const value = typeof bad === 'function' ? bad(READY_ENV) : bad;
      return { name, label: `bad value ${i + 1} (${value.length} characters)`, value };
    }),
  ]);

  it.each(cases)('$name $label: exit 1, naming it and nothing else', async ({ name, value }) => {
    const env = { ...READY_ENV, [name]: value };
    const printed: string[] = [];
    expect(launchCheckCli(await replacedContent(), env, (m) => printed.push(m))).toBe(1);
    const items = settingItems(env);
    expect(keys(items)).toEqual([`setting:${name}`]);
    expect(printed.join('\n')).toContain(items[0]!.message);
    expect(items[0]!.message).toContain(name);
    // A message never prints a secret (neither the bad value nor another setting's).
    const secret = REQUIRED_SETTINGS.find((s) => s.name === name)!.secret;
    const leaked = [...SECRET_VALUES, ...(secret && value ? [value] : [])].filter(
      (v) => v.length > 1 && printed.join('\n').includes(v),
    );
    expect(leaked).toEqual([]);
  });

  it.each(REQUIRED_SETTINGS.map((r) => r.name))(
    'a production build without %s is refused, naming it (texts included: no Messaging Service or Campaign Verify token, no build)',
    async (name) => {
      const content = await replacedContent();
      expect(() =>
        checkBuild(content, { ...READY_ENV, CONTEXT: 'production', [name]: undefined }, () => {}),
      ).toThrow(new RegExp(`Production build refused[^]*${name} is not set`));
    },
  );

  it('every required setting has bad values in the table above, beyond leaving it unset', () => {
    expect(REQUIRED_SETTINGS.filter((s) => !(BAD_VALUES[s.name]?.length ?? 0)).map((s) => s.name)).toEqual(
      [],
    );
    expect(Object.keys(BAD_VALUES).sort()).toEqual(REQUIRED_SETTINGS.map((s) => s.name).sort());
  });

  it('the documented generators pass each secret kind with room to spare; lazy values do not', () => {
    expect(SECRET_MINIMUMS).toEqual({
      key: { minBytes: 32, minBits: 128, make: 'openssl rand -base64 48' },
      credential: { minBytes: 24, minBits: 96, make: 'openssl rand -hex 24' },
    });
    // openssl rand -hex 24 and -base64 48 (the values above).
    expect(estimatedEntropyBits(READY_ENV.ACTBLUE_WEBHOOK_PASSWORD!)).toBeGreaterThan(150);
    expect(estimatedEntropyBits(READY_ENV.SESSION_SECRET!)).toBeGreaterThan(250);
    expect(estimatedEntropyBits('a')).toBe(0);
    expect(estimatedEntropyBits('k'.repeat(48))).toBe(0);
    expect(estimatedEntropyBits('')).toBe(0);
    expect(estimatedEntropyBits('password1234password1234')).toBeLessThan(96);
  });
});

/** The rows of docs/deploy.md's table of environment variables (section 2): name, secret, needed. */
function deployTable(): { name: string; secret: boolean; required: boolean }[] {
  const doc = readFileSync(join(process.cwd(), 'docs/deploy.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## 2. Environment variables'), doc.indexOf('## 3.'));
  return [...section.matchAll(/^\| `([A-Z0-9_]+)` +\| ([^|]+)\| ([^|]+)\|/gm)].map((m) => ({
    name: m[1]!,
    secret: m[2]!.trim() === '**secret**',
    required: m[3]!.trim().startsWith('yes'),
  }));
}

describe('one list: docs/deploy.md\u2019s required variables are the ones the check judges', () => {
  it('the table is read (a changed layout fails here rather than passing on an empty list)', () => {
    const rows = deployTable();
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((r) => r.required).length).toBeGreaterThan(10);
  });

  it('every variable marked "yes" is checked, and every checked one is marked "yes", in the same order', () => {
    const documented = deployTable()
      .filter((r) => r.required)
      .map((r) => r.name);
    expect(REQUIRED_SETTINGS.map((s) => s.name)).toEqual(documented);
  });

  it('the check marks the same ones secret as the table (their values are never printed)', () => {
    const documented = Object.fromEntries(deployTable().map((r) => [r.name, r.secret]));
    expect(Object.fromEntries(REQUIRED_SETTINGS.map((s) => [s.name, s.secret]))).toEqual(
      Object.fromEntries(REQUIRED_SETTINGS.map((s) => [s.name, documented[s.name]])),
    );
  });

  it('.env.example lists every required variable', () => {
    const example = readFileSync(join(process.cwd(), '.env.example'), 'utf8');
    const listed = new Set([...example.matchAll(/^([A-Z0-9_]+)=/gm)].map((m) => m[1]));
    expect(REQUIRED_SETTINGS.map((s) => s.name).filter((n) => !listed.has(n))).toEqual([]);
  });
});

/** The seeded calendar moved to another year (dates only; the check reads dates and hours). */
const calendarIn = (year: number): ElectionCalendar =>
  JSON.parse(JSON.stringify(defaultElectionCalendar).replaceAll('2025-', `${year}-`)) as ElectionCalendar;

describe('launch check: the election calendar', () => {
  // The seeded Election Day: October 11, 2025, polls 7:00 AM - 8:00 PM in New Orleans (CDT, UTC-5).
  it('flags the seeded 2025 election a year later', () => {
    const items = calendarItems(defaultElectionCalendar, new Date('2026-11-29T09:00:00-06:00'));
    expect(keys(items)).toEqual(['calendar:election-day']);
    expect(items[0]!.area).toBe('calendar');
    expect(items[0]!.message).toContain('Saturday, October 11, 2025');
    expect(items[0]!.message).toContain('Election tab');
  });

  it('is past once the polls have closed, not before', () => {
    expect(calendarItems(defaultElectionCalendar, new Date('2025-09-01T12:00:00-05:00'))).toEqual([]);
    expect(calendarItems(defaultElectionCalendar, new Date('2025-10-11T19:59:00-05:00'))).toEqual([]);
    expect(keys(calendarItems(defaultElectionCalendar, new Date('2025-10-11T20:00:00-05:00')))).toEqual([
      'calendar:election-day',
    ]);
    // The same instant written in UTC.
    expect(keys(calendarItems(defaultElectionCalendar, new Date('2025-10-12T01:00:00Z')))).toEqual([
      'calendar:election-day',
    ]);
  });

  it('a calendar holding a coming election passes; a runoff still ahead keeps a past primary from being flagged', () => {
    const now = new Date('2026-11-29T09:00:00-06:00');
    expect(calendarItems(calendarIn(2027), now)).toEqual([]);
    const runoff = calendarIn(2027).primary;
    expect(
      calendarItems(
        { ...defaultElectionCalendar, mode: 'runoff', runoff: { ...runoff, outcome: 'none' } },
        now,
      ),
    ).toEqual([]);
    // A runoff that is over too is flagged, with its own date.
    const pastRunoff = { ...calendarIn(2026).primary, outcome: 'none' as const };
    const items = calendarItems({ ...calendarIn(2025), mode: 'runoff', runoff: pastRunoff }, now);
    expect(items[0]?.message).toContain('October 11, 2026');
  });

  it('npm run launch-check fails on a past calendar alone, and passes with the coming one', async () => {
    const now = new Date('2026-11-29T09:00:00-06:00');
    const printed: string[] = [];
    const content = await replacedContent();
    expect(
      launchCheckCli(content, READY_ENV, (m) => printed.push(m), { calendar: defaultElectionCalendar, now }),
    ).toBe(1);
    expect(printed.join('\n')).toContain('is in the past');
    expect(launchCheckCli(content, READY_ENV, () => {}, { calendar: calendarIn(2027), now })).toBe(0);
  });

  it('the build is not refused for the calendar: a production build after Election Day is the stage rebuild', async () => {
    expect(checkBuild(await replacedContent(), { ...READY_ENV, CONTEXT: 'production' }, () => {})).toEqual(
      [],
    );
  });
});

describe('launch gate: the build', () => {
  it('applies to Netlify production and to APP_ENV=production off Netlify, never to previews or local builds', () => {
    expect(isProductionBuild({ CONTEXT: 'production' })).toBe(true);
    expect(isProductionBuild({ CONTEXT: 'production', APP_ENV: 'production' })).toBe(true);
    expect(isProductionBuild({ APP_ENV: 'production' })).toBe(true);
    expect(isProductionBuild({ CONTEXT: 'deploy-preview', APP_ENV: 'production' })).toBe(false);
    expect(isProductionBuild({ CONTEXT: 'branch-deploy', APP_ENV: 'production' })).toBe(false);
    expect(isProductionBuild({})).toBe(false);
    expect(isProductionBuild({ APP_ENV: 'development' })).toBe(false);
  });

  it('refuses a production build with placeholders, naming each', async () => {
    const shipped = await readLaunchContent();
    const warned: string[] = [];
    let error: unknown;
    try {
      checkBuild(shipped, { ...READY_ENV, CONTEXT: 'production' }, (m) => warned.push(m));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(LaunchGateError);
    const message = (error as Error).message;
    for (const item of contentItems(shipped)) expect(message).toContain(item.message);
    expect(message).toContain('REPLACE-ME-01');
    expect(message).toContain('src/assets/candidate/portrait.jpg');
    expect(warned).toEqual([]);
    // A setting missing alone is enough to refuse.
    const replaced = await replacedContent();
    expect(() =>
      checkBuild(replaced, { ...READY_ENV, CONTEXT: 'production', SESSION_SECRET: undefined }, () => {}),
    ).toThrow(/SESSION_SECRET is not set/);
  });

  it('lets a production build with everything replaced through, and a deploy preview with placeholders (warning)', async () => {
    expect(checkBuild(await replacedContent(), { ...READY_ENV, CONTEXT: 'production' }, () => {})).toEqual(
      [],
    );
    const warned: string[] = [];
    const items = checkBuild(await readLaunchContent(), { ...READY_ENV, CONTEXT: 'deploy-preview' }, (m) =>
      warned.push(m),
    );
    expect(items.length).toBeGreaterThan(0);
    expect(warned.join('\n')).toContain('REPLACE-ME-01');
  });

  it('the same list for the whole check', async () => {
    const shipped = await readLaunchContent();
    expect(launchItems(shipped, {})).toEqual([...contentItems(shipped), ...settingItems({})]);
  });
});

describe('npm run launch-check', () => {
  it('exits 0 when nothing is missing and 1 otherwise, printing the list', async () => {
    const printed: string[] = [];
    expect(launchCheckCli(await replacedContent(), READY_ENV, (m) => printed.push(m))).toBe(0);
    expect(printed).toEqual(['Launch check: nothing missing.']);
    printed.length = 0;
    expect(launchCheckCli(await readLaunchContent(), READY_ENV, (m) => printed.push(m))).toBe(1);
    expect(printed[0]).toContain('REPLACE-ME-02');
  });

  it('the script itself exits 1 on this repository (its placeholders, the seeded calendar) and prints each', () => {
    const run = spawnSync(process.execPath, ['scripts/launch-check.mts'], {
      cwd: process.cwd(),
      env: { PATH: process.env.PATH, ...READY_ENV },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('Election calendar: the seeded one');
    expect(run.stdout).toContain('Launch check: 10 things to replace or set');
    expect(run.stdout).toContain('REPLACE-ME-01');
    expect(run.stdout).toContain('Election Day (Saturday, October 11, 2025) is in the past');
    expect(run.stdout).not.toContain('SESSION_SECRET');
    expect(SECRET_VALUES.filter((v) => run.stdout.includes(v))).toEqual([]);
  });

  it('the script exits 1 for a weak secret alone (a one-character ActBlue password)', () => {
    const run = spawnSync(process.execPath, ['scripts/launch-check.mts'], {
      cwd: process.cwd(),
      env: { PATH: process.env.PATH, ...READY_ENV, ACTBLUE_WEBHOOK_PASSWORD: 'p' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('ACTBLUE_WEBHOOK_PASSWORD is shorter than 24 bytes');
  });
});

describe('the Astro integration', () => {
  it('is in the site config and refuses at build start in the production context only', async () => {
    // The config lists it (read as text: loading the whole Astro config takes seconds).
    const config = readFileSync(join(process.cwd(), 'astro.config.mjs'), 'utf8');
    expect(config).toMatch(/integrations: \[[^\]]*\blaunchGate\(\)/);
    const start = launchGate().hooks['astro:build:start'];
    const warned: string[] = [];
    const logger = { warn: (m: string) => warned.push(m) } as unknown as Parameters<
      NonNullable<typeof start>
    >[0]['logger'];
    const saved = { CONTEXT: process.env.CONTEXT, APP_ENV: process.env.APP_ENV };
    try {
      process.env.CONTEXT = 'production';
      await expect(start?.({ logger } as never)).rejects.toThrow(/Production build refused.*REPLACE-ME-01/s);
      process.env.CONTEXT = 'deploy-preview';
      await start?.({ logger } as never);
      expect(warned.join('\n')).toContain('REPLACE-ME-01');
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
