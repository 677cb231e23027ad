import { useId, useLayoutEffect, useRef, useState } from 'react';

/**
 * A long text in a table cell: three lines at first, and a button that shows
 * the rest (and hides it again) when there is more. The button is a real
 * button with aria-expanded, so it works from the keyboard and says its state.
 * Whether there is more is measured (the clamped box is shorter than its text),
 * not guessed from a character count.
 */
export function ExpandableText({ text, what = 'message' }: { text: string; what?: string }) {
  const id = useId();
  const ref = useRef<HTMLSpanElement>(null);
  const [open, setOpen] = useState(false);
  const [overflows, setOverflows] = useState(false);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || open) return;
    const measure = () => setOverflows(el.scrollHeight > el.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [text, open]);

  return (
    <>
      <span id={id} ref={ref} className={open ? 'cell-full' : 'cell-clamp'}>
        {text}
      </span>
      {overflows || open ? (
        <button
          type="button"
          className="link-button cell-toggle"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Show less' : `Show the full ${what}`}
        </button>
      ) : null}
    </>
  );
}
