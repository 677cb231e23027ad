import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { Toaster, toast, type ToasterProps } from 'sonner';

/**
 * The site's one toast region (spec section 9): one toast at a time, 5000 ms,
 * swipe right to dismiss, F8 focuses the region labelled 'Notification'.
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
  return (
    <Toaster
      visibleToasts={1}
      duration={5000}
      position={position}
      swipeDirections={['right']}
      hotkey={['F8']}
      containerAriaLabel="Notification"
      richColors
      closeButton
    />
  );
}

/** Mounts the region once (into its own root at the end of <body>) and resolves when it listens. */
export function mountToastRegion(): Promise<typeof toast> {
  return new Promise((resolve) => {
    const host = document.createElement('div');
    host.dataset.toastRegion = '';
    document.body.append(host);
    createRoot(host).render(<ToastRegion onReady={() => resolve(toast)} />);
  });
}
