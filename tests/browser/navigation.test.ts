import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { primaryNav } from '../../src/content/campaign';
import { launchBrowser, type BrowserSession } from './helpers/browser';
import { pageScriptReady } from './helpers/public';

let browser: BrowserSession;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('desktop navigation', () => {
  it.each(primaryNav)('marks $label as the current page on $href', async (link) => {
    const page = await browser.newPage('desktop');
    await page.goto(link.href);
    const nav = page.getByRole('navigation', { name: 'Main', exact: true });
    expect(await nav.isVisible()).toBe(true);
    const current = nav.locator('[aria-current="page"]');
    expect(await current.allInnerTexts()).toEqual([link.label]);
    expect(await current.getAttribute('class')).toContain('active');
    // The drawer button is not shown on wide screens.
    expect(await page.getByRole('button', { name: 'Menu', exact: true }).isVisible()).toBe(false);
    await page.close();
  });

  it('marks the Donate and Volunteer buttons on their pages', async () => {
    const page = await browser.newPage('desktop');
    await page.goto('/donate');
    const nav = page.getByRole('navigation', { name: 'Main', exact: true });
    expect(await nav.locator('[aria-current="page"]').allInnerTexts()).toEqual(['Donate']);
    await page.goto('/volunteer');
    expect(await nav.locator('[aria-current="page"]').allInnerTexts()).toEqual(['Volunteer']);
    await page.close();
  });
});

describe('skip link', () => {
  it('is the first Tab stop, becomes visible and moves focus to the main content', async () => {
    const page = await browser.newPage('desktop');
    await page.goto('/platform');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => ({
      text: document.activeElement?.textContent?.trim(),
      href: document.activeElement?.getAttribute('href'),
    }));
    expect(focused).toEqual({ text: 'Skip to main content', href: '#main-content' });
    const box = await page.getByRole('link', { name: 'Skip to main content' }).boundingBox();
    expect(box && box.y >= 0 && box.height > 0).toBe(true);

    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main-content');
    // The next Tab continues inside main, not back in the header.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);
    await page.close();
  });
});

describe('mobile drawer', () => {
  const drawerOpen = (page: Page) =>
    page.evaluate(() => document.querySelector<HTMLDialogElement>('#nav-drawer')?.open ?? null);

  it('opens from the Menu button, traps focus and closes on Escape with focus back on the button', async () => {
    const page = await browser.newPage('mobile');
    await page.goto('/about');
    await pageScriptReady(page); // the drawer's behaviour beyond open and close is the page script's
    expect(await page.getByRole('navigation', { name: 'Main', exact: true }).isVisible()).toBe(false);

    const menuButton = page.getByRole('button', { name: 'Menu', exact: true });
    expect(await menuButton.isVisible()).toBe(true);
    expect(await menuButton.getAttribute('aria-controls')).toBe('nav-drawer');

    await menuButton.focus();
    await page.keyboard.press('Enter');
    expect(await drawerOpen(page)).toBe(true);

    const drawerNav = page.getByRole('navigation', { name: 'Main menu' });
    expect(await drawerNav.isVisible()).toBe(true);
    expect(await drawerNav.locator('[aria-current="page"]').allInnerTexts()).toEqual(['About']);

    // Focus starts in the drawer and stays there through a full Tab cycle in both directions.
    const focusInDrawer = () => page.evaluate(() => document.activeElement?.closest('#nav-drawer') !== null);
    expect(await focusInDrawer()).toBe(true);
    const stops = await page.locator('#nav-drawer a[href], #nav-drawer button').count();
    for (let i = 0; i < stops + 2; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInDrawer()).toBe(true);
    }
    for (let i = 0; i < stops + 2; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusInDrawer()).toBe(true);
    }

    await page.keyboard.press('Escape');
    await expect.poll(() => drawerOpen(page)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-menu-open'))).toBe(true);
    await page.close();
  });

  it('closes when a link is chosen and returns focus to the button', async () => {
    const page = await browser.newPage('mobile');
    await page.goto('/about');
    await pageScriptReady(page); // the drawer's behaviour beyond open and close is the page script's
    // Hold the navigation back so the closing itself can be observed.
    await page.evaluate(() =>
      document.addEventListener('click', (event) => {
        if (event.target instanceof Element && event.target.closest('#nav-drawer a')) event.preventDefault();
      }),
    );
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    expect(await drawerOpen(page)).toBe(true);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Platform' }).click();
    await expect.poll(() => drawerOpen(page)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-menu-open'))).toBe(true);
    await page.close();
  });

  it('navigates to the chosen page with the drawer closed', async () => {
    const page = await browser.newPage('mobile');
    await page.goto('/');
    await pageScriptReady(page); // the drawer's behaviour beyond open and close is the page script's
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await Promise.all([
      page.waitForURL('**/platform'),
      page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Platform' }).click(),
    ]);
    expect(await drawerOpen(page)).toBe(false);
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    expect(
      await page
        .getByRole('navigation', { name: 'Main menu' })
        .locator('[aria-current="page"]')
        .allInnerTexts(),
    ).toEqual(['Platform']);
    await page.close();
  });

  it('closes with the close button and on a click outside the panel', async () => {
    const page = await browser.newPage('mobile');
    await page.goto('/contact');
    await pageScriptReady(page); // the drawer's behaviour beyond open and close is the page script's
    const menuButton = page.getByRole('button', { name: 'Menu', exact: true });
    await menuButton.click();
    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect.poll(() => drawerOpen(page)).toBe(false);

    await menuButton.click();
    expect(await drawerOpen(page)).toBe(true);
    await page.mouse.click(10, 400); // on the backdrop, left of the right-hand panel
    await expect.poll(() => drawerOpen(page)).toBe(false);
    await page.close();
  });
});
