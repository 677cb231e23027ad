import type { ClientDirective } from 'astro';

/**
 * `client:interaction` (issue 10): an island that hydrates on the visitor's
 * first interaction with it (focus, pointer, key), not when it scrolls into
 * view. For the public forms: their server-rendered <form> is a real POST to
 * its endpoint, so before hydration (and without JavaScript) they already
 * work; React, the island and the captcha load only once someone starts
 * filling one in, so pages that merely show a form load none of it.
 *
 * A submit that comes before hydration has finished (say a click straight on
 * the button) is held, and sent again through the island once it has
 * hydrated (toasts, states, captcha check); if the island cannot load, the
 * form posts as it would without JavaScript.
 *
 * `client:interaction={{ pendingKey }}` hydrates at once when localStorage
 * holds that key: work saved on an earlier visit (the volunteer outbox) is
 * sent without waiting for an interaction.
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
  let hydration: Promise<void> | null = null;
  let done = false;
  const start = (): Promise<void> => {
    hydration ??= (async () => {
      const hydrate = await load();
      await hydrate();
      // Astro hydrates React in a transition: let it attach its handlers before a held submit is replayed.
      await new Promise((resolve) => setTimeout(resolve, 0));
      done = true;
    })();
    return hydration;
  };
  const value = options.value as { pendingKey?: unknown } | undefined;
  if (hasPending(value?.pendingKey)) {
    void start();
    return;
  }
  for (const type of TRIGGERS) el.addEventListener(type, () => void start(), { once: true, passive: true });
  el.addEventListener(
    'submit',
    (event) => {
      if (done || !(event.target instanceof HTMLFormElement)) return;
      const form = event.target;
      const submitter = event.submitter;
      event.preventDefault();
      start().then(
        () => form.requestSubmit(submitter),
        () => form.submit(),
      );
    },
    { capture: true },
  );
};

export default interactionDirective;
