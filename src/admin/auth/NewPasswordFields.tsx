import { PASSWORD_MIN } from '../../lib/schemas/fields.ts';
import { PasswordInput } from '../components/PasswordInput.tsx';

/** The New password and Confirm new password fields every password change asks for (ids `${idPrefix}-new` and `-confirm`). */
export function NewPasswordFields({
  idPrefix,
  next,
  confirm,
  onNext,
  onConfirm,
}: {
  idPrefix: string;
  next: string;
  confirm: string;
  onNext: (value: string) => void;
  onConfirm: (value: string) => void;
}) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${idPrefix}-new`} className="field__label">
          New password
        </label>
        <PasswordInput
          id={`${idPrefix}-new`}
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          aria-describedby={`${idPrefix}-new-hint`}
          value={next}
          onChange={(e) => onNext(e.target.value)}
        />
        <p id={`${idPrefix}-new-hint`} className="field__hint">
          At least {PASSWORD_MIN} characters, and not a common password: three or four unrelated words work
          well.
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-confirm`} className="field__label">
          Confirm new password
        </label>
        <PasswordInput
          id={`${idPrefix}-confirm`}
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          value={confirm}
          onChange={(e) => onConfirm(e.target.value)}
        />
      </div>
    </>
  );
}
