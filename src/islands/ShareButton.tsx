import { cancelledByPerson } from '../lib/client/share.ts';
import { toast } from '../lib/client/toast';
import type { IslandUi } from '../content/ui.ts';
import '../styles/islands.css';

interface Props {
  /** The button's words in the page's language (src/content/ui.ts `islandUi`). */
  words: Pick<IslandUi, 'share' | 'linkCopied' | 'copyFailed'>;
  title: string;
  text?: string;
  /** Canonical article URL; defaults to the current page. */
  url?: string;
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

/** Share (spec section 8): the native share sheet, else copy the link and say 'Link copied!'. */
export default function ShareButton({ words, title, text, url }: Props) {
  async function onClick() {
    const link = url ?? location.href;
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, text, url: link });
        return;
      } catch (err) {
        if (cancelledByPerson(err)) return; // the reader closed the sheet
        // Any other failure: copy the link instead.
      }
    }
    if (await copy(link)) toast.success(words.linkCopied);
    else toast.error(words.copyFailed, { description: link });
  }

  return (
    <button type="button" className="btn btn--outline share-button" onClick={() => void onClick()}>
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M18 16.1c-.8 0-1.4.3-2 .8l-7.1-4.2c.1-.2.1-.5.1-.7s0-.5-.1-.7L16 7.2c.5.5 1.2.8 2 .8 1.7 0 3-1.3 3-3s-1.3-3-3-3-3 1.3-3 3c0 .2 0 .5.1.7L8 9.8C7.5 9.3 6.8 9 6 9c-1.7 0-3 1.3-3 3s1.3 3 3 3c.8 0 1.5-.3 2-.8l7.1 4.2c-.1.2-.1.4-.1.6 0 1.6 1.3 2.9 2.9 2.9s2.9-1.3 2.9-2.9-1.2-2.9-2.8-2.9z"
        />
      </svg>
      {words.share}
    </button>
  );
}
