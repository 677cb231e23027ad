import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/* Runs axe-core inside the page and fails with a readable list of violations. */

/**
 * axe-core's minified build, the same version and rules as `axe.source` (its unminified build): under half the bytes
 * to send through the DevTools protocol and to parse in each page checked.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

function describeViolation(violation: Violation): string {
  const nodes = violation.nodes
    .slice(0, 5)
    .map(
      (node) =>
        `    at ${node.target.join(' ')}\n      ${(node.failureSummary ?? '').replace(/\n/g, '\n      ')}`,
    )
    .join('\n');
  const more = violation.nodes.length > 5 ? `\n    ... and ${violation.nodes.length - 5} more` : '';
  return `${violation.id} (${violation.impact ?? 'unknown'}): ${violation.help}\n    ${violation.helpUrl}\n${nodes}${more}`;
}

/** Axe runs on a page whose toasts moved during the run before the check gives up (each after they come to rest). */
const MAX_RUNS = 4;

/** The toasts as they are: each one's text, state and the opacity of it and every part (one string, to compare). */
const toastsNow = (page: Page): Promise<string> =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-sonner-toast]')]
      .map((toast) =>
        [
          toast.textContent,
          ...['data-removed', 'data-front', 'data-visible', 'data-expanded'].map((a) =>
            toast.getAttribute(a),
          ),
          ...[toast, ...toast.querySelectorAll('*')].map((el) => getComputedStyle(el).opacity),
        ].join('|'),
      )
      .join('\n'),
  );

/** Waits until no toast is leaving and every toast and part is shown or hidden (opacity 1 or 0); answers them. */
async function toastsAtRest(page: Page): Promise<string> {
  await expect.poll(() => page.locator('[data-sonner-toast][data-removed="true"]').count()).toBe(0);
  await expect
    .poll(() =>
      page.evaluate(() =>
        // The toast and every part: sonner fades both (a stacked toast's text goes to 0 behind the front one).
        [...document.querySelectorAll('[data-sonner-toast], [data-sonner-toast] *')].every((el) =>
          ['0', '1'].includes(getComputedStyle(el).opacity),
        ),
      ),
    )
    .toBe(true);
  return toastsNow(page);
}

/** One axe run over the document: its WCAG 2.2 A/AA violations. */
const runAxe = (page: Page): Promise<Violation[]> =>
  page.evaluate(async (tags) => {
    const runner = (window as unknown as { axe: typeof axe }).axe;
    const results = await runner.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  }, WCAG_TAGS);

/** Assert that the page as it is now has no WCAG 2.2 A/AA violations. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // axe's target-size rule counts a control that the sticky site header covers at the current
  // scroll position as too small: that depends on where a test left the page, not on the page.
  // Check from the top, as the page opens (focused controls are kept clear of the header by
  // scroll-padding-top in global.css).
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  // A toast on its way out (sonner marks it `data-removed` for its 200 ms exit animation) or on its way in (its
  // opacity and its parts' rising for 400 ms) is a frame between two states, not a state: half-faded, its text
  // fails the contrast rule (seen: a success toast at #54996d on #f2fef7, 3.29:1, caught as it faded in), and
  // sliding it can cover a header control. Check once each toast has gone or come to rest, shown (opacity 1) or
  // stacked out of sight (opacity 0); a toast that stays is checked like the rest of the page. A toast can also
  // start to leave while axe runs (its few seconds run out: seen, a title at 4.1:1 mid-fade), so a run counts only
  // when the toasts were the same before and after it; otherwise axe runs again once they are at rest.
  // evaluate() runs through the DevTools protocol, so a strict CSP cannot block it. Once per document: a second
  // check of the same page (the other width, another state) reuses it.
  const loaded = await page.evaluate(
    () => typeof (window as unknown as { axe?: { run?: unknown } }).axe?.run === 'function',
  );
  if (!loaded) await page.evaluate(AXE_SOURCE);
  let violations: Violation[] = [];
  for (let run = 1; run <= MAX_RUNS; run++) {
    const before = await toastsAtRest(page);
    violations = await runAxe(page);
    if ((await toastsNow(page)) === before) break;
    expect(run, 'the toasts never stood still through an axe run').toBeLessThan(MAX_RUNS);
  }
  expect(violations.map(describeViolation), `axe found violations on ${page.url()}`).toEqual([]);
}
