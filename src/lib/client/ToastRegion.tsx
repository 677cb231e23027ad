import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { Toaster, toast, useSonner, type ToasterProps } from 'sonner';
import { NOTIFICATION_KEY } from './notification-key.ts';

/**
 * The site's one toast region (spec section 9): one toast at a time, 5000 ms,
 * swipe right to dismiss, NOTIFICATION_KEY (F8) focuses the region labelled 'Notification'.
 */
export function ToastRegion({
  onReady,
  position = 'bottom-right',
}: {
  onReady?: () => void;
  /** The admin dashboard uses top-center, so a toast never covers a dialog's Save button. */
  position?: ToasterProps['position'];
}) {
  useEffect(() => onReady?.(), [onReady]);
  // Spec section 9: one toast at a time. A new toast replaces the one on screen, and
  // the replaced or dismissed ones are dropped, not queued behind it (sonner's
  // visibleToasts only hides them, so a dismissed front toast let an older one back).
  const { toasts } = useSonner();
  useEffect(() => {
    for (const older of toasts.slice(1)) if (!older.delete) toast.dismiss(older.id);
  }, [toasts]);
  return (
    <Toaster
      visibleToasts={1}
      duration={5000}
      position={position}
      swipeDirections={['right']}
      hotkey={[NOTIFICATION_KEY]}
      containerAriaLabel="Notification"
      richColors
      closeButton
    />
  );
}

/** Mounts the region (into its own root at the end of <body>) and resolves when it listens. */
export function mountToastRegion(): Promise<typeof toast> {
  return new Promise((resolve) => {
    const host = document.createElement('div');
    host.dataset.toastRegion = '';
    document.body.append(host);
    createRoot(host).render(<ToastRegion onReady={() => resolve(toast)} />);
  });
}
