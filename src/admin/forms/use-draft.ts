import { useEffect, useState } from 'react';

/*
 * Unsaved work in a long form (an article, an event) kept in this tab's sessionStorage while it is typed, so a
 * dialog closed by mistake, a reload or an expired session does not lose it: the next opening of the same record
 * offers it back. sessionStorage, not localStorage: a draft stays in the tab that wrote it and goes when the tab
 * closes, so it is not left on a shared office computer; signing out clears every draft too (`clearDrafts`).
 * docs/decisions/169-dashboard-ui.md.
 */

const PREFIX = 'campaign.admin.draft.';

export interface Draft<T> {
  values: T;
  savedAt: string;
}

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null; // storage disabled: drafts are a convenience, never a requirement
  }
}

function read<T>(key: string): Draft<T> | null {
  try {
    const raw = storage()?.getItem(PREFIX + key);
    return raw ? (JSON.parse(raw) as Draft<T>) : null;
  } catch {
    return null;
  }
}

export function clearDraft(key: string): void {
  storage()?.removeItem(PREFIX + key);
}

/** Every draft of this tab (on sign-out). */
export function clearDrafts(): void {
  const s = storage();
  if (!s) return;
  for (let i = s.length - 1; i >= 0; i -= 1) {
    const k = s.key(i);
    if (k?.startsWith(PREFIX)) s.removeItem(k);
  }
}

/**
 * The draft of `key` found when the form opened (null when none, or when it equals what the form starts
 * with), and the values written back half a second after each change while `dirty`.
 */
export function useDraft<T>(key: string, values: T, initial: T, dirty: boolean): Draft<T> | null {
  const [found] = useState(() => {
    const d = read<T>(key);
    return d && JSON.stringify(d.values) !== JSON.stringify(initial) ? d : null;
  });
  useEffect(() => {
    if (!dirty) return;
    const timer = setTimeout(() => {
      try {
        storage()?.setItem(PREFIX + key, JSON.stringify({ values, savedAt: new Date().toISOString() }));
      } catch {
        // full or disabled: nothing to keep
      }
    }, 500);
    return () => clearTimeout(timer);
  }, [key, values, dirty]);
  return found;
}

/** Whether a form's values differ from what it opened with. */
export const isDirty = <T>(values: T, initial: T) => JSON.stringify(values) !== JSON.stringify(initial);
