/*
 * The /donate page's amount presets, the provider's form in a frame, and the
 * public fundraising goal. Their markup is in the page's HTML
 * (DonatePage.astro); this adds what needs the browser: the chosen amount and
 * the visit's refcode/utm_* tags and invite code in the frame's address, and the goal's
 * current figures (refreshed like the public lists, every 30 s).
 *
 * Loaded by the layout's one script (PageScripts.astro) only on a page with
 * `[data-donate]`. Plain DOM, no React: nothing on this page needs a
 * component runtime, and React's start-up at load was the page's whole Total
 * Blocking Time (docs/decisions/162-public-pages-and-performance.md).
 */
import { withAttribution } from '../lib/client/attribution.ts';
import { queryFetcher } from '../lib/client/api.ts';
import { PUBLIC_LIST_SWR } from '../lib/public-lists.ts';
import { buildDonationUrl, DONATION_PRESETS } from '../lib/donate.ts';
import { inviteCodeOfCookies } from '../lib/invite-link.ts';
import { fill } from '../lib/fill.ts';
import type { PublicGoal } from '../lib/schemas/donations.ts';

const usd = (cents: number) =>
  (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

function startForm(root: HTMLElement): void {
  let frame = root.querySelector<HTMLIFrameElement>('[data-donate-frame]');
  const link = root.querySelector<HTMLAnchorElement>('a[data-donate-link]');
  const buttons = [...root.querySelectorAll<HTMLButtonElement>('button[data-amount]')];
  const { provider, amountParam } = root.dataset;
  const search = withAttribution(location.search);
  // A visit through a supporter's invite link (/r/<code>, in the last 30 days): the gift credits its owner.
  const inviteCode = inviteCodeOfCookies(document.cookie);
  const preset = Number(new URLSearchParams(location.search).get('amount'));
  let amount: number | null = (DONATION_PRESETS as readonly number[]).includes(preset) ? preset : null;

  const render = () => {
    // Only what changed is written: at start-up the HTML already says "nothing chosen", and each
    // needless attribute write costs the page a restyle right after load.
    for (const button of buttons) {
      const pressed = String(Number(button.dataset.amount) === amount);
      if (button.getAttribute('aria-pressed') === pressed) continue;
      button.setAttribute('aria-pressed', pressed);
      button.classList.toggle('btn--primary', pressed === 'true');
      button.classList.toggle('btn--outline', pressed !== 'true');
    }
    const url = buildDonationUrl({ baseUrl: provider, amount, pageSearch: search, amountParam, inviteCode });
    if (link && url && link.getAttribute('href') !== url) link.href = url;
    if (frame && url && frame.getAttribute('src') !== url) {
      // A new frame per address, as the page's history should not step through the frame's.
      const next = frame.cloneNode() as HTMLIFrameElement;
      next.src = url;
      next.hidden = false;
      frame.replaceWith(next);
      frame = next;
    }
  };
  for (const button of buttons) {
    button.addEventListener('click', () => {
      amount = Number(button.dataset.amount);
      render();
    });
  }
  render();
}

function startGoal(section: HTMLElement): void {
  const { raisedOf = '', percentOfGoal = '', goalFallback = '' } = section.dataset;
  const heading = section.querySelector<HTMLElement>('[data-goal-label]');
  const raised = section.querySelector<HTMLElement>('[data-goal-raised]');
  const target = section.querySelector<HTMLElement>('[data-goal-target]');
  const bar = section.querySelector<HTMLElement>('[role="progressbar"]');
  const fillBar = bar?.querySelector<HTMLElement>('span');

  const show = ({ goal }: PublicGoal) => {
    if (section.hidden !== !goal) section.hidden = !goal;
    if (!goal || !heading || !raised || !target || !bar || !fillBar) return;
    const percent = Math.min(100, Math.round((goal.raisedCents / goal.targetCents) * 100));
    heading.textContent = goal.label || goalFallback;
    raised.textContent = usd(goal.raisedCents);
    target.textContent = fill(raisedOf, usd(goal.targetCents));
    bar.setAttribute('aria-valuenow', String(percent));
    bar.setAttribute('aria-valuetext', fill(percentOfGoal, percent));
    fillBar.style.width = `${percent}%`;
  };
  // A failed refresh leaves what is shown (spec section 9: no retry; the next refresh tries again).
  const refresh = () => queryFetcher<PublicGoal>('/api/donations/goal').then(show, () => undefined);
  void refresh();
  setInterval(() => void refresh(), PUBLIC_LIST_SWR.refreshInterval);
}

export function startDonate(root: ParentNode): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-donate]')) startForm(el);
  for (const el of root.querySelectorAll<HTMLElement>('[data-donation-goal]')) startGoal(el);
  for (const el of root.querySelectorAll<HTMLElement>('[data-donate], [data-donation-goal]'))
    el.dataset.ready = '';
}
