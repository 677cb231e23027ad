import { offerLanguage, rememberLanguage } from './language.ts';

/**
 * The site header's behaviour (SiteHeader.astro's markup): the language
 * switcher's memory and offer, and the navigation drawer (a modal <dialog>
 * opened by the Menu button, closed by Escape, its close button, a link or a
 * backdrop click, with Tab kept inside). Run by the layout's one script
 * (PageScripts.astro) once the page has painted; the Menu button works before
 * that by itself (invoker commands). Marks the header data-ready when done.
 */
export function startSiteHeader(document: Document): void {
  rememberLanguage(document);
  // The offer reads localStorage, whose first use can take milliseconds: a task of its own, so the
  // page script's start stays short (it runs after the first paint, where a long task blocks input).
  setTimeout(() => offerLanguage(document));

  const drawer = document.querySelector<HTMLDialogElement>('#nav-drawer');
  const openButton = document.querySelector<HTMLButtonElement>('[data-menu-open]');

  if (drawer && openButton) {
    const focusables = () =>
      Array.from(drawer.querySelectorAll<HTMLElement>('a[href], button:not([disabled])'));

    // The buttons open and close the drawer by themselves where the browser knows invoker commands
    // (commandfor/command in SiteHeader.astro: before this script has loaded, or without JavaScript;
    // such a button takes no aria-expanded, and a modal dialog needs none). This script adds the
    // closing on a link or the backdrop, the Tab trap, and the opening where commands are unknown.
    if (!('command' in HTMLButtonElement.prototype)) {
      openButton.addEventListener('click', () => drawer.showModal());
    }

    // Fires for Escape (native cancel), the close button, a link choice and backdrop clicks.
    drawer.addEventListener('close', () => openButton.focus());

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
  document.querySelector('.site-header')?.setAttribute('data-ready', '');
}
