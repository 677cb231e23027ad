/**
 * The key that focuses the notification region (spec section 9): sonner's hotkey
 * in ToastRegion.tsx, and the page script's listener that mounts the region
 * first when no toast has been shown yet (PageScriptBundle.astro).
 */
export const NOTIFICATION_KEY = 'F8';
