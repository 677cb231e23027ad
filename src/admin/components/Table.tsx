import { useId, type ReactNode } from 'react';

/**
 * A captioned data table in a focusable scroll region (usable at 390 px:
 * keyboard users can scroll it sideways).
 */
export function Table({
  caption,
  captionHidden,
  children,
}: {
  caption: string;
  captionHidden?: boolean;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="table-wrap" role="region" aria-labelledby={id} tabIndex={0}>
      <table className="table">
        <caption id={id} className={captionHidden ? 'sr-only' : undefined}>
          {caption}
        </caption>
        {children}
      </table>
    </div>
  );
}
