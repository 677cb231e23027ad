import { startAnalytics, type PageviewConfig } from './analytics.ts';
import { socialIcon } from './social-icons.ts';
import { parseSocialLinks } from './social-links.ts';

/*
 * What every page does once it has loaded (PageScripts.astro imports this on
 * the load event): nothing here is needed for the first screen, so none of it
 * is fetched or run before the page has painted (docs/decisions/162-public-pages-and-performance.md). The analytics
 * page view, the footer's social icons and a
 * retry of volunteer sign-ups saved in this browser during an outage
 * (docs/decisions/162-public-pages-and-performance.md), loaded only when something is waiting.
 */

/** Fills the footer's social list (SiteFooter.astro) from /api/social-media-links, icons from social-icons.ts. */
async function renderSocialLinks(list: HTMLUListElement): Promise<void> {
  let body: unknown;
  try {
    const response = await fetch('/api/social-media-links', { headers: { Accept: 'application/json' } });
    if (!response.ok) return;
    body = await response.json();
  } catch {
    return; // offline or endpoint missing: no icons
  }
  for (const link of parseSocialLinks(body)) {
    const anchor = document.createElement('a');
    anchor.href = link.url;
    anchor.title = link.label;
    anchor.target = '_blank';
    anchor.rel = 'noopener noreferrer';
    anchor.dataset.platform = link.platform;
    anchor.append(socialIcon(link.platform));
    const name = document.createElement('span');
    name.className = 'visually-hidden';
    name.textContent = link.label;
    anchor.append(name);
    const item = document.createElement('li');
    item.append(anchor);
    list.append(item);
  }
  list.hidden = list.childElementCount === 0;
}

/** `analytics`: the build's PUBLIC_ANALYTICS_URL and PUBLIC_ANALYTICS_DOMAIN (read where Astro types them). */
export function afterLoad(analytics: PageviewConfig): void {
  startAnalytics(analytics);

  const list = document.querySelector<HTMLUListElement>('[data-social-links]');
  if (list) void renderSocialLinks(list);

  try {
    // The volunteer page sends saved sign-ups itself (and can ask for a fresh captcha).
    if (
      localStorage.getItem('campaign.volunteer-outbox.v1') &&
      !document.querySelector('[data-volunteer-form]')
    ) {
      void import('./volunteer-outbox.ts').then((m) => m.flushOutbox(m.postVolunteer));
    }
  } catch {
    /* storage disabled */
  }
}
