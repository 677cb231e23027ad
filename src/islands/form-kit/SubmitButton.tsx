/**
 * A form's submit button that says what it is doing while the form is busy
 * (spec section 8: 'Sending...', 'Signing In...'), disabled meanwhile so a
 * second press does not send twice. Shared by the public auth islands and the
 * dashboard's auth and security forms.
 */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  disabled = false,
  className = 'btn btn--primary btn--block',
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  /** Held back for another reason too (a missing reset token). */
  disabled?: boolean;
  className?: string;
}) {
  return (
    <button type="submit" className={className} disabled={busy || disabled}>
      {busy ? busyLabel : label}
    </button>
  );
}
