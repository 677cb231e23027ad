import { z } from './zod.ts';

/**
 * Paging of every staff list (admin collections, users, inbox): one query
 * shape, one page shape, one set of limits (SECURITY.md: lists paginate).
 */
export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 200;

const positive = (name: string, max: number, message: string) =>
  z.coerce.number({ error: message }).int(message).min(1, message).max(max, message).describe(name);

/** `?page` (from 1) and `?pageSize` (default 50, at most 200). Malformed values are a 400, never guessed at. */
export const PageQuerySchema = z.object({
  page: positive('page', 1_000_000, 'page must be a positive integer').default(1),
  pageSize: positive('pageSize', PAGE_SIZE_MAX, `pageSize must be between 1 and ${PAGE_SIZE_MAX}`).default(
    PAGE_SIZE_DEFAULT,
  ),
});
export type PageQuery = z.output<typeof PageQuerySchema>;

/** Where a page sits in its list: the total, the page number and its size. */
export const PageInfoSchema = z.object({
  total: z.number().int().min(0),
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1).max(PAGE_SIZE_MAX),
});

/** One page of a list, under the list's own name (`articles`, `users`, `items`, ...). */
export type Page<K extends string, T> = z.output<typeof PageInfoSchema> & Record<K, T[]>;
