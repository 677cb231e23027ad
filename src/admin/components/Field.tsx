import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

interface Common {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
}

function described(id: string, hint?: ReactNode, error?: string): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

function Extras({ id, hint, error }: Pick<Common, 'id' | 'hint' | 'error'>) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** The field wrapper: label, the control, then its hint and error. */
function Labelled({
  id,
  label,
  hint,
  error,
  className,
  children,
}: Common & { className?: string | undefined; children: ReactNode }) {
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {children}
      <Extras id={id} hint={hint} error={error} />
    </div>
  );
}

/** Attributes every labelled control shares (spread before the caller's own). */
function control(id: string, hint?: ReactNode, error?: string) {
  return {
    id,
    className: 'input',
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described(id, hint, error),
  };
}

export function TextField({
  id,
  label,
  hint,
  error,
  className,
  ...props
}: Common & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Labelled id={id} label={label} hint={hint} error={error} className={className}>
      <input {...control(id, hint, error)} {...props} />
    </Labelled>
  );
}

export function TextArea({
  id,
  label,
  hint,
  error,
  className,
  ...props
}: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Labelled id={id} label={label} hint={hint} error={error} className={className}>
      <textarea {...control(id, hint, error)} {...props} />
    </Labelled>
  );
}

export function SelectField({
  id,
  label,
  hint,
  error,
  options,
  className,
  ...props
}: Common &
  SelectHTMLAttributes<HTMLSelectElement> & { options: readonly { value: string; label: string }[] }) {
  return (
    <Labelled id={id} label={label} hint={hint} error={error} className={className}>
      <select {...control(id, hint, error)} {...props}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Labelled>
  );
}

export function CheckboxField({
  id,
  label,
  hint,
  className,
  ...props
}: Omit<Common, 'error'> & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className={`field field--check ${className ?? ''}`}>
      <input id={id} type="checkbox" aria-describedby={hint ? `${id}-hint` : undefined} {...props} />
      <label htmlFor={id}>{label}</label>
      <Extras id={id} hint={hint} />
    </div>
  );
}
