import { Toaster as Sonner, type ToasterProps } from 'sonner';

/**
 * The site's one toast region (spec section 9): one toast at a time, 5000 ms,
 * swipe right to dismiss, F8 focuses the region labelled 'Notification'.
 * Every island calls `toast` from 'sonner'; they share this region.
 * `position` is optional: the admin dashboard uses top-center so a toast never
 * covers a dialog's Save button (bottom right).
 */
export default function Toaster({ position = 'bottom-right' }: { position?: ToasterProps['position'] }) {
  return (
    <Sonner
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
