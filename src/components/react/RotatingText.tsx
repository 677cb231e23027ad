import type { IslandUi } from '../../content/ui.ts';
import '../../styles/islands.css';

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

/** What src/scripts/rotating-text.ts reads from the element's data-rotating attribute. */
export interface RotationSettings {
  items: string[];
  intervalMs: number;
  fade: boolean;
  controlLabel?: string | undefined;
  words: Pick<IslandUi, 'pause' | 'resume'>;
}

/**
 * Text that rotates through `items`. Rendered on the server only (no React in
 * the browser, docs/decisions/162-public-pages-and-performance.md): the first item is in the static HTML, and
 * src/scripts/rotating-text.ts starts the rotation (and adds the Pause/Resume
 * control) unless reduced motion is preferred. The region is aria-live="off":
 * screen readers read the current text when they reach it instead of being
 * interrupted every few seconds.
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
  if (items.length === 0) return null;
  const settings: RotationSettings = { items, intervalMs, fade, controlLabel, words };
  return (
    <Tag
      className={['rotating-text', fade ? 'rotating-text--fade' : '', className ?? '']
        .filter(Boolean)
        .join(' ')}
      aria-live="off"
      data-rotating-index={0}
      data-rotating={JSON.stringify(settings)}
    >
      {items[0]}
    </Tag>
  );
}
