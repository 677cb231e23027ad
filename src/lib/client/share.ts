import { toast } from './toast.ts';

/**
 * Spec section 8: when the native share sheet fails or is unavailable, the
 * link is copied. The one exception is the person closing the sheet
 * themselves: browsers report that as an AbortError. Anything else (a
 * NotAllowedError without a user gesture, a TypeError for data the platform
 * cannot share, an error from another realm that is not a DOMException
 * instance, a non-Error rejection) falls back to copying.
 */
export function cancelledByPerson(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Older browsers or a denied permission: the selection-based fallback.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    // The only fallback where the Clipboard API is missing or refused.
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/** What the Share button shares and says, read from its data attributes (ShareButton.astro). */
export interface ShareWords {
  linkCopied: string;
  copyFailed: string;
}

/** Share (spec section 8): the native share sheet, else copy the link and say 'Link copied!'. */
export async function shareOrCopy(
  data: { title: string; text?: string | undefined; url: string },
  words: ShareWords,
): Promise<void> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share(data);
      return;
    } catch (err) {
      if (cancelledByPerson(err)) return; // the reader closed the sheet
      // Any other failure: copy the link instead.
    }
  }
  if (await copy(data.url)) toast.success(words.linkCopied);
  else toast.error(words.copyFailed, { description: data.url });
}

/**
 * Wires the page's Share buttons (ShareButton.astro's markup), started by the
 * layout's page script when the page has one (PageScriptBundle.astro): one
 * script for every page, fetched after the first paint. Marks each button
 * data-share-ready (browser tests wait for it before clicking).
 */
export function startShareButtons(root: Document): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-share]')) {
    const d = button.dataset;
    button.addEventListener('click', () => {
      void shareOrCopy(
        { title: d.shareTitle ?? root.title, text: d.shareText, url: d.shareUrl ?? location.href },
        { linkCopied: d.linkCopied ?? '', copyFailed: d.copyFailed ?? '' },
      );
    });
    button.dataset.shareReady = '';
  }
}
