import { useState, type InputHTMLAttributes } from 'react';

/** Password input with a show/hide toggle; the toggle names what it will do. */
export function PasswordInput({
  id,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { id: string }) {
  const [shown, setShown] = useState(false);
  return (
    <div className="password-field">
      <input {...props} id={id} type={shown ? 'text' : 'password'} className="input" />
      <button
        type="button"
        className="btn btn--ghost btn--sm password-field__toggle"
        aria-controls={id}
        aria-label={shown ? 'Hide password' : 'Show password'}
        onClick={() => setShown((s) => !s)}
      >
        {shown ? 'Hide' : 'Show'}
      </button>
    </div>
  );
}
