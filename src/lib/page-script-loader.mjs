// @ts-check
import { createHash } from 'node:crypto';
import { EARLY_CLICKS_PROPERTY, EARLY_CLICKS_SELECTOR, START_KEY_PROPERTY } from './page-script-start.mjs';
/**
 * The one inline script of every page (docs/decisions/162-public-pages-and-performance.md): it fetches the layout's
 * bundled page script (PageScripts.astro, rendered inert inside
 * <template data-page-script>) once the first screen has painted, so that no
 * request but the document itself stands between a visitor and the page's
 * first paint (and none takes bandwidth from the home page's poster).
 *
 * When: after the load event (the first screen's images are in) and the first
 * contentful paint, one frame later (the frame that paints an image that
 * arrived just before load). At once if the visitor presses a key, a pointer or
 * a finger first; a key press that starts it is left on the document for the
 * script (page-script-start.mjs), which had no listener yet, and so are the
 * clicks on controls that only the script makes work (a click follows the
 * pointer press that starts the script, before the script has arrived). A browser without
 * paint timing starts at the load event. A page opened in a background tab
 * paints, and so starts, when it is shown.
 *
 * The source is a constant so that its hash is too: the Content-Security-Policy's
 * 'sha256-…' is derived from this string below (script-src gets no
 * 'unsafe-inline'). The fetched script is a same-origin file ('self'). Imported
 * by the build and page rendering only (node:crypto stays out of the API
 * functions' start-up).
 */
export const PAGE_SCRIPT_SELECTOR = 'template[data-page-script]';

export const PAGE_SCRIPT_LOADER = `(() => {
  const d = document;
  let started = false;
  let loaded = d.readyState === 'complete';
  let painted = !(window.PerformanceObserver?.supportedEntryTypes ?? []).includes('paint');
  const start = (event) => {
    if (started) return;
    started = true;
    if (event?.type === 'keydown') d[${JSON.stringify(START_KEY_PROPERTY)}] = event;
    for (const t of d.querySelectorAll(${JSON.stringify(PAGE_SCRIPT_SELECTOR)})) {
      for (const s of t.content.querySelectorAll('script[src]')) {
        const n = d.createElement('script');
        n.type = 'module';
        n.src = s.getAttribute('src');
        d.head.append(n);
      }
    }
  };
  const clicks = (d[${JSON.stringify(EARLY_CLICKS_PROPERTY)}] = []);
  addEventListener('click', (event) => {
    if (event.target.closest?.(${JSON.stringify(EARLY_CLICKS_SELECTOR)})) clicks.push(event.target);
  }, { capture: true, passive: true });
  const ready = () => {
    if (loaded && painted) requestAnimationFrame(() => setTimeout(start));
  };
  for (const type of ['pointerdown', 'keydown', 'touchstart']) {
    addEventListener(type, start, { once: true, passive: true, capture: true });
  }
  if (!painted) {
    new PerformanceObserver((list, observer) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      painted = true;
      ready();
    }).observe({ type: 'paint', buffered: true });
  }
  if (!loaded) {
    addEventListener('load', () => {
      loaded = true;
      ready();
    }, { once: true });
  }
  ready();
})();`;

/**
 * The hash that allows the loader (astro.config.mjs gives it to Astro's policy).
 * @type {`sha256-${string}`}
 */
export const PAGE_SCRIPT_LOADER_HASH = `sha256-${createHash('sha256').update(PAGE_SCRIPT_LOADER).digest('base64')}`;

/** script-src of a page Astro gave no policy (the 404 page): its scripts are files, plus the loader. */
export const FALLBACK_SCRIPT_SRC = `script-src 'self' '${PAGE_SCRIPT_LOADER_HASH}'`;
