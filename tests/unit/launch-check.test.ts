import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBuild, launchCheckCli, launchGate, LaunchGateError } from '../../scripts/lib/launch-gate.mts';
import { DEV_SESSION_SECRET, TURNSTILE_TEST_SECRET } from '../../src/lib/server/env.ts';
import {
  contentItems,
  isProductionBuild,
  launchItems,
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

/** Every setting a live site needs, set to real-looking values. */
const READY_ENV: LaunchEnv = {
  APP_ENV: 'production',
  SITE_URL: 'https://riveraformayor.com',
  SESSION_SECRET: 'k'.repeat(48),
  TURNSTILE_SECRET_KEY: '0x4AAAAAAAreal-secret-value',
  PUBLIC_TURNSTILE_SITE_KEY: '0x4AAAAAAAreal-site-key',
  TWILIO_ACCOUNT_SID: 'AC0123',
  TWILIO_AUTH_TOKEN: 'token',
  TWILIO_MESSAGING_SERVICE_SID: 'MG0123',
  SENDGRID_API_KEY: 'SG.key',
  EMAIL_FROM: 'no-reply@riveraformayor.com',
  CAMPAIGN_INBOX_EMAIL: 'team@riveraformayor.com',
  PUBLIC_DONATION_URL: 'https://secure.actblue.com/donate/rivera',
  ACTBLUE_WEBHOOK_USERNAME: 'u'.repeat(24),
  ACTBLUE_WEBHOOK_PASSWORD: 'p'.repeat(24),
  DONOR_KEY_SECRET: 'd'.repeat(48),
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
  it('names each missing setting', () => {
    expect(keys(settingItems({}))).toEqual([
      'setting:APP_ENV',
      'setting:SITE_URL',
      'setting:SESSION_SECRET',
      'setting:TURNSTILE_SECRET_KEY',
      'setting:PUBLIC_TURNSTILE_SITE_KEY',
      'setting:TWILIO_ACCOUNT_SID',
      'setting:TWILIO_AUTH_TOKEN',
      'setting:TWILIO_MESSAGING_SERVICE_SID',
      'setting:SENDGRID_API_KEY',
      'setting:EMAIL_FROM',
      'setting:CAMPAIGN_INBOX_EMAIL',
      'setting:PUBLIC_DONATION_URL',
      'setting:ACTBLUE_WEBHOOK_USERNAME',
      'setting:ACTBLUE_WEBHOOK_PASSWORD',
      'setting:DONOR_KEY_SECRET',
    ]);
  });

  it('is empty when every setting is real', () => {
    expect(settingItems(READY_ENV)).toEqual([]);
    // A from-number instead of a Messaging Service is a sender too.
    expect(
      settingItems({
        ...READY_ENV,
        TWILIO_MESSAGING_SERVICE_SID: undefined,
        TWILIO_FROM_NUMBER: '+15045550000',
      }),
    ).toEqual([]);
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
      'setting:TURNSTILE_SECRET_KEY',
      'setting:PUBLIC_TURNSTILE_SITE_KEY',
      'setting:EMAIL_FROM',
      'setting:CAMPAIGN_INBOX_EMAIL',
      'setting:PUBLIC_DONATION_URL',
    ]);
    expect(keys(settingItems({ ...READY_ENV, SESSION_SECRET: 'short' }))).toEqual(['setting:SESSION_SECRET']);
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

  it('the script itself exits 1 on this repository (its placeholders) and prints each', () => {
    const run = spawnSync(process.execPath, ['scripts/launch-check.mts'], {
      cwd: process.cwd(),
      env: { PATH: process.env.PATH, ...READY_ENV },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('Launch check: 9 things to replace or set');
    expect(run.stdout).toContain('REPLACE-ME-01');
    expect(run.stdout).not.toContain('SESSION_SECRET');
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
