import { Toaster as Sonner } from 'sonner';

/**
 * The site's one toast region (spec section 9): one toast at a time, 5000 ms,
 * swipe right to dismiss, F8 focuses the region labelled 'Notification'.
 * Every island calls `toast` from 'sonner'; they share this region.
 */
export default function Toaster() {
  return (
    <Sonner
      visibleToasts={1}
      duration={5000}
      position="bottom-right"
      swipeDirections={['right']}
      hotkey={['F8']}
      containerAriaLabel="Notification"
      richColors
      closeButton
    />
  );
}
