import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { FormUi } from '../../content/ui.ts';
import Captcha, { type CaptchaHandle } from '../Captcha.tsx';

/**
 * For islands that enhance a server-rendered <form> (the RSVP form, the plan to vote): the form the island wraps
 * (the first `formSelector` inside `wrap`), the captcha rendered into its `[data-captcha-slot]`, and the current
 * token. Render `captcha` anywhere in the island; call `reset()` after each submit (tokens are single use).
 */
export function useSlotCaptcha(
  formSelector: string,
  siteKey: string | undefined,
  words: FormUi,
): {
  wrap: React.RefObject<HTMLDivElement | null>;
  token: React.RefObject<string | null>;
  reset: () => void;
  captcha: ReactNode;
} {
  const wrap = useRef<HTMLDivElement>(null);
  const handle = useRef<CaptchaHandle>(null);
  const token = useRef<string | null>(null);
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  useEffect(() => {
    const form = wrap.current?.querySelector<HTMLFormElement>(formSelector);
    setSlot(form?.querySelector<HTMLElement>('[data-captcha-slot]') ?? null);
  }, [formSelector]);
  const reset = useCallback(() => handle.current?.reset(), []);
  const captcha = slot
    ? createPortal(
        <Captcha ref={handle} siteKey={siteKey} words={words} onToken={(t) => (token.current = t)} />,
        slot,
      )
    : null;
  return { wrap, token, reset, captcha };
}
