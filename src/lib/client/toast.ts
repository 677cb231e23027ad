import type { ExternalToast, toast as sonnerToast } from 'sonner';

/**
 * Toasts for the public islands. sonner and its region load on the first toast,
 * not with the page: most visitors never see one, and the home page's
 * JavaScript budget (80 KB compressed) has no room for it up front.
 * Same call shape as sonner's `toast.success` / `toast.error`.
 */
let region: Promise<typeof sonnerToast> | null = null;

function mounted(): Promise<typeof sonnerToast> {
  region ??= import('./ToastRegion.tsx').then((m) => m.mountToastRegion());
  return region;
}

function show(kind: 'success' | 'error' | 'message', title: string, options?: ExternalToast): void {
  void mounted().then((t) => (kind === 'message' ? t(title, options) : t[kind](title, options)));
}

/** The notification region (sonner's <section aria-label="Notification F8">), wherever it was mounted. */
const regionElement = () => document.querySelector<HTMLElement>('section[aria-label^="Notification"]');

/**
 * F8 (spec section 9) on every page: focuses the notification region. With a
 * toast on screen sonner's own F8 handler focuses its list; with none, or
 * before the first toast mounted the region, this focuses the (empty,
 * labelled) region itself, mounting it first if needed.
 */
export async function focusNotifications(): Promise<void> {
  let section = regionElement();
  if (!section) {
    await mounted();
    section = regionElement();
  }
  if (section && !section.querySelector('ol')) section.focus();
}

export const toast = {
  success: (title: string, options?: ExternalToast) => show('success', title, options),
  error: (title: string, options?: ExternalToast) => show('error', title, options),
  message: (title: string, options?: ExternalToast) => show('message', title, options),
};
