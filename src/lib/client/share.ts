/**
 * Spec section 8: when the native share sheet fails or is unavailable, the
 * link is copied. The one exception is the person closing the sheet
 * themselves: browsers report that as an AbortError. Anything else (a
 * NotAllowedError without a user gesture, a TypeError for data the platform
 * cannot share, an error from another realm that is not a DOMException
 * instance, a non-Error rejection) falls back to copying.
 */
export function cancelledByPerson(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';
}
