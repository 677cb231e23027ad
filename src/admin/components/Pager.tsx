import { useEffect } from 'react';

/** Server-side paging: Previous / Next with a live "Page x of y" status. */
export function Pager({
  label,
  page,
  pageSize,
  total,
  onPage,
}: {
  label: string;
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button
        type="button"
        className="btn btn--secondary btn--sm"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </button>
      <span className="pager__status" aria-live="polite">
        Page {page} of {pages}
      </span>
      <button
        type="button"
        className="btn btn--secondary btn--sm"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}

/** After a delete empties the last page, step back to the new last page. */
export function useClampPage(
  page: number,
  setPage: (p: number) => void,
  total: number | undefined,
  pageSize: number,
): void {
  const pages = Math.max(1, Math.ceil((total ?? 0) / pageSize));
  useEffect(() => {
    if (total !== undefined && page > pages) setPage(pages);
  }, [page, pages, total, setPage]);
}
