import type { ClientDirective } from 'astro';

/**
 * `client:interaction` (docs/decisions/162-public-pages-and-performance.md): an island that hydrates on the visitor's
 * first interaction with it (focus, pointer, key), not when it scrolls into
 * view. For the public forms: their server-rendered <form> is a real POST to
 * its endpoint, so before hydration (and without JavaScript) they already
 * work; React, the island and the captcha load only once someone starts
 * filling one in, so pages that merely show a form load none of it.
 *
 * A submit that comes before hydration has finished posts the form as it
 * would without JavaScript (tests/browser/public-nojs.test.ts): nothing waits
 * on a download that may never finish.
 *
 * An island the visitor has already focused into when the directive runs
 * hydrates at once: that focus was the first use.
 *
 * `client:interaction={{ pendingKey }}` hydrates at once when localStorage
 * holds that key: work saved on an earlier visit (the volunteer outbox) is
 * sent without waiting for an interaction.
 *
 * `client:interaction={{ after: ms }}` also hydrates that long after the
 * directive runs, interaction or not: /blog's lists, whose HTML is current
 * when the page loads and which need their island only for the 30 s refresh
 * (src/lib/client/public-lists.ts: an island that mounts once that refresh
 * is due fetches at once).
 *
 * Bundled on its own into every page that uses it (inline, CSP-hashed by
 * Astro), so it imports nothing.
 */
const TRIGGERS = ['focusin', 'pointerdown', 'keydown', 'touchstart'] as const;

function hasPending(key: unknown): boolean {
  if (typeof key !== 'string') return false;
  try {
    return localStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}

const interactionDirective: ClientDirective = (load, options, el) => {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const type of TRIGGERS) el.removeEventListener(type, start);
    void load().then((hydrate) => hydrate());
  };
  const value = options.value as { pendingKey?: unknown; after?: unknown } | undefined;
  // Focus already inside the island is a first use that came before this directive ran (in development the
  // island first loads Astro's before-hydration module, and a visitor can be in the field by then).
  if (hasPending(value?.pendingKey) || el.contains(document.activeElement)) {
    start();
    return;
  }
  for (const type of TRIGGERS) el.addEventListener(type, start, { passive: true });
  if (typeof value?.after === 'number' && value.after >= 0) setTimeout(start, value.after);
};

export default interactionDirective;
