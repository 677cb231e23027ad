import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultElectionCalendar } from '../../src/content/election-calendar';
import { electionLines } from '../../src/content/election-lines';
import { launchBrowser, type BrowserSession } from './helpers/browser';

/*
 * The election as the built pages say it, with JavaScript off (docs/decisions/087-election-calendar.md). The
 * build's stage is today's: the seeded 2025 election is over, so past tense everywhere, no phase "Active", and the
 * voter help still lists the dates and sites. tests/unit/election-lines.test.ts walks every other stage.
 */
let noJs: BrowserSession;
beforeAll(async () => {
  noJs = await launchBrowser({ javaScriptEnabled: false });
});
afterAll(async () => {
  await noJs?.close();
});

const text = async (path: string, selector = 'body') => {
  const page = await noJs.newPage();
  await page.goto(path);
  const t = await page.locator(selector).first().innerText();
  await page.close();
  return t;
};

describe('the election stage in the HTML', () => {
  it('/vote and /es/vote: the stage line, key dates, early-voting sites with map links', async () => {
    for (const lang of ['en', 'es'] as const) {
      const lines = electionLines(defaultElectionCalendar, new Date(), lang);
      const page = await noJs.newPage();
      await page.goto(lang === 'en' ? '/vote' : '/es/vote');
      const body = await page.locator('main').innerText();
      expect(body).toContain(lines.headline);
      for (const site of defaultElectionCalendar.sites) {
        expect(body).toContain(site.address);
        expect(await page.locator(`a[href="${site.mapUrl}"]`).count()).toBe(1);
      }
      await page.close();
    }
  });

  it('home: no phase is Active once the election is over, and the stage line says it was held', async () => {
    const home = await text('/', 'main');
    expect(home).toContain(electionLines(defaultElectionCalendar, new Date(), 'en').headline);
    expect(home).not.toMatch(/\bActive\b/);
    const es = await text('/es', 'main');
    expect(es).not.toContain('En curso');
  });

  it('the Contact FAQ answers in the past tense, in both languages', async () => {
    const page = await noJs.newPage();
    await page.goto('/contact');
    expect(await page.locator('.faq').innerHTML()).toContain(
      'Election Day was October 11, 2025. Early voting ran September 27 - October 4.',
    );
    await page.goto('/es/contact');
    expect(await page.locator('.faq').innerHTML()).toContain(
      'El día de la elección fue el 11 de octubre de 2025.',
    );
    await page.close();
  });
});
