/** Page size for admin lists: default 50, at most 200 (SECURITY.md: lists paginate). */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** Slices a list by `?page` (1-based) and `?pageSize`; bad values fall back to the defaults. */
export function pageOf<T>(all: T[], url: URL): Page<T> {
  const num = (name: string, fallback: number) => {
    const n = Number.parseInt(url.searchParams.get(name) ?? '', 10);
    return Number.isFinite(n) && n > 0 ? n : fallback;
  };
  const pageSize = Math.min(MAX_PAGE_SIZE, num('pageSize', DEFAULT_PAGE_SIZE));
  const page = num('page', 1);
  return { items: all.slice((page - 1) * pageSize, page * pageSize), total: all.length, page, pageSize };
}
