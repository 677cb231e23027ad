import type { ExternalToast, toast as sonnerToast } from 'sonner';

/**
 * Toasts for the public islands. sonner and its region load on the first toast,
 * not with the page: most visitors never see one, and the home page's
 * JavaScript budget (80 KB compressed) has no room for it up front.
 * Same call shape as sonner's `toast.success` / `toast.error`.
 */
let region: Promise<typeof sonnerToast> | null = null;

function show(kind: 'success' | 'error' | 'message', title: string, options?: ExternalToast): void {
  region ??= import('./ToastRegion.tsx').then((m) => m.mountToastRegion());
  void region.then((t) => (kind === 'message' ? t(title, options) : t[kind](title, options)));
}

export const toast = {
  success: (title: string, options?: ExternalToast) => show('success', title, options),
  error: (title: string, options?: ExternalToast) => show('error', title, options),
  message: (title: string, options?: ExternalToast) => show('message', title, options),
};
