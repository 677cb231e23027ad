import { useEffect, useState } from 'react';
import type { IslandUi } from '../content/ui.ts';
import '../styles/islands.css';

interface Props {
  items: string[];
  /** Spec section 9: headline 4000, quote 6000, secondary heading 3000. */
  intervalMs: number;
  /** Element to render: the page decides the heading level. */
  as?: 'h1' | 'h2' | 'h3' | 'p' | 'blockquote' | 'span';
  className?: string;
  /** Fade between items (150 ms) on screens 768 px and wider; no fade below (spec section 9). */
  fade?: boolean;
  /** What rotates, e.g. "rotating quote": adds a Pause/Resume control named after it (WCAG 2.2.2). */
  controlLabel?: string;
  /** The control's words in the page's language (src/content/ui.ts `islandUi`). */
  words: Pick<IslandUi, 'pause' | 'resume'>;
}

const FADE_MS = 150;

/**
 * Text that rotates through `items`. The first item is server-rendered; the
 * rotation starts after hydration unless reduced motion is preferred. The
 * region is aria-live="off": screen readers read the current text when they
 * reach it instead of being interrupted every few seconds.
 */
export default function RotatingText({
  items,
  intervalMs,
  as: Tag = 'p',
  className,
  fade = false,
  controlLabel,
  words,
}: Props) {
  const [index, setIndex] = useState(0);
  const [visible, setVisible] = useState(true);
  const [running, setRunning] = useState(false);
  const [mounted, setMounted] = useState(false);

  useEffect(() => {
    setMounted(true);
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    if (!reduced && items.length > 1) setRunning(true);
  }, [items.length]);

  useEffect(() => {
    if (!running) return;
    let fadeTimer: number | undefined;
    const timer = window.setInterval(() => {
      const wide = window.matchMedia?.('(min-width: 768px)').matches ?? true;
      if (fade && wide) {
        setVisible(false);
        fadeTimer = window.setTimeout(() => {
          setIndex((i) => (i + 1) % items.length);
          setVisible(true);
        }, FADE_MS);
      } else {
        setIndex((i) => (i + 1) % items.length);
      }
    }, intervalMs);
    return () => {
      window.clearInterval(timer);
      window.clearTimeout(fadeTimer);
    };
  }, [running, intervalMs, fade, items.length]);

  if (items.length === 0) return null;
  const text = items[index] ?? items[0];

  return (
    <>
      <Tag
        className={[
          'rotating-text',
          fade ? 'rotating-text--fade' : '',
          visible ? '' : 'is-hidden',
          className ?? '',
        ]
          .filter(Boolean)
          .join(' ')}
        aria-live="off"
        data-rotating-index={index}
      >
        {text}
      </Tag>
      {controlLabel && mounted && items.length > 1 && (
        <button type="button" className="rotating-pause" onClick={() => setRunning((r) => !r)}>
          {running ? words.pause : words.resume}
          <span className="visually-hidden"> {controlLabel}</span>
        </button>
      )}
    </>
  );
}
