import { offerLanguage, rememberLanguage } from './language.ts';

/**
 * The site header's behaviour (SiteHeader.astro's markup): the language
 * switcher's memory and offer, and the navigation drawer (a modal <dialog>
 * opened by the Menu button, closed by Escape, its close button, a link or a
 * backdrop click, with Tab kept inside). Run at once by the layout's one
 * script (PageScripts.astro): the Menu button must work as soon as it shows.
 */
export function startSiteHeader(document: Document): void {
  rememberLanguage(document);
  offerLanguage(document);

  const drawer = document.querySelector<HTMLDialogElement>('#nav-drawer');
  const openButton = document.querySelector<HTMLButtonElement>('[data-menu-open]');

  if (drawer && openButton) {
    const focusables = () =>
      Array.from(drawer.querySelectorAll<HTMLElement>('a[href], button:not([disabled])'));

    openButton.addEventListener('click', () => {
      drawer.showModal();
      openButton.setAttribute('aria-expanded', 'true');
    });

    // Fires for Escape (native cancel), the close button, a link choice and backdrop clicks.
    drawer.addEventListener('close', () => {
      openButton.setAttribute('aria-expanded', 'false');
      openButton.focus();
    });

    drawer.addEventListener('click', (event) => {
      const target = event.target;
      if (target === drawer) {
        drawer.close(); // click on the backdrop, outside the panel
      } else if (target instanceof Element && target.closest('a[href], [data-menu-close]')) {
        drawer.close(); // a link was chosen (navigation continues) or the close button
      }
    });

    // Keep Tab and Shift+Tab cycling inside the drawer.
    drawer.addEventListener('keydown', (event) => {
      if (event.key !== 'Tab') return;
      const items = focusables();
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    });

    // Growing past the breakpoint hides the Menu button: close the drawer with it.
    window.matchMedia('(min-width: 60rem)').addEventListener('change', (event) => {
      if (event.matches && drawer.open) drawer.close();
    });
  }
}
