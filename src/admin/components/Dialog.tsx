import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.hasAttribute('inert') && el.getClientRects().length > 0,
  );
}

/** Hosts of the toast region (admin and public), which a modal never makes inert. */
const TOAST_HOSTS = '[data-toast-host], [data-toast-region]';

/** Open dialogs, innermost last: only the innermost one answers Escape and Tab. */
const openDialogs: object[] = [];

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Buttons row; rendered inside the dialog so it is part of the focus trap. */
  footer?: ReactNode;
  /** 'alertdialog' for confirmations. */
  role?: 'dialog' | 'alertdialog';
  size?: 'sm' | 'md' | 'lg';
}

/**
 * Modal dialog (WAI-ARIA dialog pattern): focus moves in (first [data-autofocus]
 * or first focusable), Tab and Shift+Tab stay inside, Escape closes, and focus
 * returns to the element that opened it. Not the native <dialog>: its top layer
 * would make the shared toast region inert while a form is open.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  role = 'dialog',
  size = 'md',
}: DialogProps) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const root = ref.current;
    if (root) {
      const first = root.querySelector<HTMLElement>('[data-autofocus]') ?? focusables(root)[0] ?? root;
      first.focus();
    }
    const token = {};
    openDialogs.push(token);
    // On the document, not the dialog: focus can drop to <body> (a button disabled while saving)
    // and Escape and Tab must still work.
    const onKeyDown = (e: KeyboardEvent) => {
      if (openDialogs.at(-1) !== token || !ref.current) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        onCloseRef.current();
        return;
      }
      if (e.key !== 'Tab') return;
      const items = focusables(ref.current);
      const first = items[0];
      const last = items.at(-1);
      const active = document.activeElement;
      const inside = active instanceof Node && ref.current.contains(active);
      if (!first || !last) {
        e.preventDefault();
        ref.current.focus();
      } else if (!inside) {
        e.preventDefault();
        (e.shiftKey ? last : first).focus();
      } else if (e.shiftKey && (active === first || active === ref.current)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && active === last) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    // The page behind a modal is inert: not focusable, not clickable, hidden from assistive
    // technology (aria-modal alone is not honoured everywhere). The toast region stays live:
    // its messages must remain readable and clickable while a form is open.
    const overlay = root?.parentElement;
    const madeInert: Element[] = [];
    for (const el of Array.from(document.body.children)) {
      if (el === overlay || el.hasAttribute('inert') || el.matches(TOAST_HOSTS)) continue;
      el.setAttribute('inert', '');
      madeInert.push(el);
    }
    return () => {
      for (const el of madeInert) el.removeAttribute('inert');
      document.removeEventListener('keydown', onKeyDown);
      openDialogs.splice(openDialogs.indexOf(token), 1);
      document.body.style.overflow = overflow;
      // Return focus to the opener; if it left the page (a deleted row), the browser falls back to <body>.
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);

  if (!open) return null;

  return createPortal(
    <div
      className="admin-app admin-overlay"
      onMouseDown={(e) => e.target === e.currentTarget && onCloseRef.current()}
    >
      <div
        ref={ref}
        className={`admin-dialog admin-dialog--${size}`}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descId : undefined}
        tabIndex={-1}
      >
        <div className="admin-dialog__head">
          <h2 id={titleId} className="admin-dialog__title">
            {title}
          </h2>
          <button
            type="button"
            className="btn btn--ghost btn--icon"
            aria-label="Close"
            onClick={() => onCloseRef.current()}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
        {description ? (
          <div id={descId} className="admin-dialog__desc">
            {description}
          </div>
        ) : null}
        <div className="admin-dialog__body">{children}</div>
        {footer ? <div className="admin-dialog__foot">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}
