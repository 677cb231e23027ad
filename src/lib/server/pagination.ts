import { PageQuerySchema, type Page, type PageQuery } from '../schemas/paging.ts';
import { HttpError } from './errors.ts';
import { json } from './http.ts';

/** The page query of a staff list; 400 with the schema's message when malformed. */
export function pageQuery(url: URL): PageQuery {
  const params = url.searchParams;
  const r = PageQuerySchema.safeParse({
    page: params.get('page') || undefined,
    pageSize: params.get('pageSize') || undefined,
  });
  if (!r.success) throw new HttpError(400, r.error.issues[0]?.message ?? 'Invalid page');
  return r.data;
}

/** One page of `all`, under `name`. */
export function pageOf<K extends string, T>(name: K, all: readonly T[], query: PageQuery): Page<K, T> {
  const start = (query.page - 1) * query.pageSize;
  return {
    [name]: all.slice(start, start + query.pageSize),
    total: all.length,
    page: query.page,
    pageSize: query.pageSize,
  } as Page<K, T>;
}

/** The JSON answer of a paged staff list (no-store). */
export function pageResponse<K extends string, T>(name: K, all: readonly T[], req: Request): Response {
  return json(pageOf(name, all, pageQuery(new URL(req.url))));
}
