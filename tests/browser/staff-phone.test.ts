import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './helpers/axe';
import { apiAs, createStaff, dashboardBrowser, expectToast, login, openDashboard } from './helpers/staff';

/*
 * Security's "Mobile phone for test texts" and the composer's test control
 * (docs/decisions/152-broadcasts.md): a member without a verified phone is sent to Security by a
 * link; there they type their number, get a code by text (the dev server's outbox), a wrong code is refused on the
 * field, the right one verifies the phone; the composer then shows it masked, with no number to type, and the test
 * goes to it.
 */

const browser = dashboardBrowser();
const run = Date.now().toString(36);
const digits = `21255${String(Date.now() % 100_000).padStart(5, '0')}`;
const e164 = `+1${digits}`;
const masked = `(•••) •••-${digits.slice(-4)}`;

/** The code of the newest text the dev server's outbox holds for the number (as `npm run outbox -- sms` prints it). */
async function codeTextedTo(to: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/outbox.mts', 'sms'], {
    cwd: process.cwd(),
    maxBuffer: 64 * 1024 * 1024,
  });
  const texts = stdout.split('─'.repeat(72)).filter((block) => block.includes(`to ${to}\n`));
  const code = /verification code is (\d{6})/.exec(texts.at(-1) ?? '')?.[1];
  expect(code, `a code texted to ${to}`).toBeDefined();
  return code!;
}

describe('Security: my phone for test texts', () => {
  it('the composer sends a member without one to Security; a code by text verifies it; the test then goes to it', async () => {
    const { username, password } = await createStaff('editor', `phone-ui-${run}`);
    const api = await login(username, password);
    const draft = await apiAs(api.cookie, 'POST', '/api/admin/broadcasts', {
      name: `Phone test ${run}`,
      channel: 'text',
      audience: { kind: 'text_subscribers' },
      text: { body: 'Doors open at 6.' },
    });
    expect(draft.status, draft.text).toBe(201);

    const page = await openDashboard(browser, username, password);
    await page.getByRole('tab', { name: 'Broadcasts' }).click();
    await page.getByRole('button', { name: `Open Phone test ${run}` }).click();
    const test = page.getByTestId('test-phone');
    await test.getByText(/you have none yet/).waitFor();
    expect(await page.getByLabel('Your mobile number').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Send test' }).isDisabled()).toBe(true);
    await test.getByRole('link', { name: 'verify your mobile phone under Security' }).click();

    await page.getByRole('heading', { name: 'Mobile phone for test texts' }).waitFor();
    await page.getByText('Verified phone: None').waitFor();
    await page.getByRole('button', { name: 'Add a phone' }).click();
    await page
      .getByLabel('Your mobile number')
      .fill(`(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`);
    await page.getByRole('button', { name: 'Text me a code' }).click();
    const codeField = page.getByLabel('Code', { exact: true });
    await codeField.waitFor();
    await page.getByText(`We texted a code to ${masked}`).waitFor();
    const code = await codeTextedTo(e164);

    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await codeField.fill(wrong);
    await page.getByRole('button', { name: 'Verify phone' }).click();
    await page.getByText('That code is not right. Please check it and try again.').waitFor();
    expect(await codeField.getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page);

    await codeField.fill(code);
    await page.getByRole('button', { name: 'Verify phone' }).click();
    await expectToast(page, 'Phone verified');
    await page.getByText(`Verified phone: ${masked}`).waitFor();
    // Axe once the toast has gone (a toast fading out is half transparent: a contrast finding of the animation).
    await expect.poll(() => page.locator('[data-sonner-toast]').count()).toBe(0);
    await expectNoAxeViolations(page);

    await page.getByRole('tab', { name: 'Broadcasts' }).click();
    await page.getByRole('button', { name: `Open Phone test ${run}` }).click();
    await page.getByTestId('test-phone').getByText(masked).waitFor();
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByRole('status').getByText(`Test sent to ${masked}.`).waitFor();
  });
});
