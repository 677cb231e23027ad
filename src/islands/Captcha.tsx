import { useEffect, useId, useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { FormUi } from '../content/ui.ts';
import '../styles/islands.css';

/** Turnstile's documented dummy token; the server accepts it only in local mode. */
export const LOCAL_CAPTCHA_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';
const SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

export interface CaptchaHandle {
  /** Clears the token and shows a fresh challenge (after a submit). */
  reset(): void;
}

interface Props {
  /** PUBLIC_TURNSTILE_SITE_KEY; empty or missing: local test widget. */
  siteKey?: string | undefined;
  /**
   * The form field the local test widget posts its token under (the schema's
   * captcha field). Turnstile adds its own hidden `cf-turnstile-response` field
   * to the form, which the server reads as the same thing.
   */
  name?: string | undefined;
  onToken?: (token: string | null) => void;
  /** Shown when scripts are off: the captcha needs JavaScript (src/content/forms.ts, passed by the page). */
  noscriptNote?: string | undefined;
  /** The widget's words in the page's language (src/content/ui.ts `formUi`), passed by the form. */
  words: Pick<FormUi, 'captchaHuman' | 'captchaLoadError' | 'captchaLegend' | 'captchaLocalNote'>;
  ref?: Ref<CaptchaHandle>;
}

interface Turnstile {
  render(el: HTMLElement, opts: Record<string, unknown>): string;
  reset(id?: string): void;
  remove(id: string): void;
}
declare global {
  interface Window {
    turnstile?: Turnstile;
  }
}

let scriptPromise: Promise<Turnstile> | null = null;
function loadTurnstile(): Promise<Turnstile> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  scriptPromise ??= new Promise<Turnstile>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () =>
      window.turnstile ? resolve(window.turnstile) : reject(new Error('turnstile missing'));
    script.onerror = () => {
      scriptPromise = null;
      reject(new Error('turnstile failed to load'));
    };
    document.head.appendChild(script);
  });
  return scriptPromise;
}

/**
 * Cloudflare Turnstile, rendered explicitly; the token arrives by callback.
 * Its script is requested only once the visitor focuses or presses something
 * in the form, never at page load.
 * Without a site key (local mode) a visible, clearly labelled test widget
 * yields the dummy token instead, so the forms work end to end on a laptop.
 */
export default function Captcha({ siteKey, name, onToken, noscriptNote, words, ref }: Props) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const widget = useRef<string | null>(null);
  const onTokenRef = useRef(onToken);
  onTokenRef.current = onToken;
  const [checked, setChecked] = useState(false);
  const [loadError, setLoadError] = useState(false);

  useImperativeHandle(ref, () => ({
    reset() {
      onTokenRef.current?.(null);
      setChecked(false);
      if (widget.current && window.turnstile) window.turnstile.reset(widget.current);
    },
  }));

  useEffect(() => {
    const el = box.current;
    if (!siteKey || !el) return;
    let cancelled = false;
    const start = () => {
      stop();
      loadTurnstile()
        .then((ts) => {
          if (cancelled || !box.current) return;
          widget.current = ts.render(box.current, {
            sitekey: siteKey,
            callback: (token: string) => onTokenRef.current?.(token),
            'expired-callback': () => onTokenRef.current?.(null),
            'error-callback': () => onTokenRef.current?.(null),
          });
        })
        .catch(() => !cancelled && setLoadError(true));
    };
    // Nothing goes to Cloudflare until the visitor starts on this form (docs/decisions/162-public-pages-and-performance.md: no third-party
    // request at page load): the widget loads on the first focus or press inside the form.
    const form = el.closest('form') ?? el.parentElement ?? el;
    const events = ['focusin', 'pointerdown'] as const;
    const stop = () => events.forEach((e) => form.removeEventListener(e, start));
    if (form.contains(document.activeElement) && document.activeElement !== document.body) start();
    else events.forEach((e) => form.addEventListener(e, start));
    return () => {
      cancelled = true;
      stop();
      if (widget.current && window.turnstile) window.turnstile.remove(widget.current);
      widget.current = null;
    };
  }, [siteKey]);

  if (siteKey) {
    return (
      <div className="captcha">
        {noscriptNote && (
          <noscript>
            <p className="notice notice--warn">{noscriptNote}</p>
          </noscript>
        )}
        <div ref={box} />
        {loadError && <p className="field-error">{words.captchaLoadError}</p>}
      </div>
    );
  }

  return (
    <LocalCaptcha
      id={`${id}-human`}
      name={name}
      words={words}
      note={noscriptNote}
      checked={checked}
      onChange={(on) => {
        setChecked(on);
        onTokenRef.current?.(on ? LOCAL_CAPTCHA_TOKEN : null);
      }}
    />
  );
}

/**
 * Local mode's test widget (no site key): a plain checkbox that posts the
 * dummy token, so it works without JavaScript too. The island renders it live
 * (`checked`, `onChange`); a page can render it as static HTML inside its own
 * <noscript> (the RSVP form, src/components/sections/RsvpSection.astro), with
 * `noteInNoscript={false}` since the whole widget is already there.
 */
export function LocalCaptcha({
  id,
  name,
  words,
  note,
  noteInNoscript = true,
  checked,
  onChange,
}: {
  id: string;
  name?: string | undefined;
  /** The widget's words in the page's language (src/content/ui.ts `formUi`). */
  words: Pick<FormUi, 'captchaHuman' | 'captchaLegend' | 'captchaLocalNote'>;
  /** That the captcha needs JavaScript: shown only when scripts are off. */
  note?: string | undefined;
  noteInNoscript?: boolean;
  checked?: boolean;
  onChange?: (checked: boolean) => void;
}) {
  const notice = note && (
    <p className="notice notice--warn">
      {note} {words.captchaLocalNote}
    </p>
  );
  return (
    <fieldset className="captcha captcha--local">
      <legend>{words.captchaLegend}</legend>
      {notice && (noteInNoscript ? <noscript>{notice}</noscript> : notice)}
      <div className="field field--check">
        <input
          id={id}
          type="checkbox"
          name={name}
          value={LOCAL_CAPTCHA_TOKEN}
          checked={checked}
          onChange={onChange && ((e) => onChange(e.target.checked))}
        />
        <label htmlFor={id}>{words.captchaHuman}</label>
      </div>
    </fieldset>
  );
}
