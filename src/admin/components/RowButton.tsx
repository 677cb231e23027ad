import type { ButtonHTMLAttributes } from 'react';

/**
 * A record's small action button (Edit, Delete, History...). Screen readers also hear which record
 * it acts on ("Edit Article 1"); sighted users see it from the row.
 */
export function RowButton({
  action,
  name,
  ...props
}: {
  action: 'Edit' | 'Delete' | 'History' | 'Restore' | 'Reset two-factor';
  name: string;
} & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      type="button"
      className={`btn ${action === 'Delete' ? 'btn--destructive' : 'btn--secondary'} btn--sm`}
      {...props}
    >
      {action}
      <span className="sr-only"> {name}</span>
    </button>
  );
}
