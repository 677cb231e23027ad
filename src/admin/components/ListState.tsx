import type { ReactNode } from 'react';
import { ApiError } from '../../lib/client/api.ts';

/** Loading / error / empty states shared by every list. */
export function ListState({
  isLoading,
  error,
  empty,
  emptyText,
  children,
}: {
  isLoading: boolean;
  error: unknown;
  empty: boolean;
  /** What an empty list says (default "Nothing here yet."): a search that matched nothing says so. */
  emptyText?: string | undefined;
  children: ReactNode;
}) {
  if (error) {
    const msg =
      error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Could not load this list.';
    return (
      <p className="state state--error" role="alert">
        {msg}
      </p>
    );
  }
  if (isLoading) {
    return (
      <p className="state" role="status">
        Loading…
      </p>
    );
  }
  if (empty) return <p className="state">{emptyText ?? 'Nothing here yet.'}</p>;
  return <>{children}</>;
}
