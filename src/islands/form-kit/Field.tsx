import type { ReactNode } from 'react';

/*
 * The public islands' fields: a label, the control, an optional hint and the
 * error, wired with aria-describedby / aria-invalid. Controls are uncontrolled
 * (`defaultValue`): what a person typed before the island hydrated stays, and
 * the island reads the <form>'s FormData exactly as a browser form post would.
 */

/** A field row's label, hint and error, and the ids that tie them to the control. */
export interface FieldProps {
  /** Id prefix from useId(). */
  idBase: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  required?: boolean;
  /** Mark the field optional in its label (the spec's "(optional)"). */
  optionalLabel?: boolean;
  /** Another element that describes the control, e.g. a form-level alert about it. */
  describedBy?: string | undefined;
}
type Common = FieldProps;

/** What the row's control carries: its id, and its validity and descriptions. */
export interface ControlAttrs {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

const ids = (p: Common) => ({
  control: `${p.idBase}-${p.name}`,
  hint: `${p.idBase}-${p.name}-hint`,
  error: `${p.idBase}-${p.name}-error`,
});

function describedBy(p: Common): string | undefined {
  const i = ids(p);
  return (
    [p.hint ? i.hint : null, p.error ? i.error : null, p.describedBy ?? null].filter(Boolean).join(' ') ||
    undefined
  );
}

/** The attributes for a row's control (for the rows below, and for controls of one's own). */
function controlAttrs(p: Common): ControlAttrs {
  const attrs: ControlAttrs = { id: ids(p).control };
  if (p.error) attrs['aria-invalid'] = true;
  const by = describedBy(p);
  if (by) attrs['aria-describedby'] = by;
  return attrs;
}

/**
 * One field row: the label, the control, an optional hint and the error. The
 * control is the caller's (`children` gets its id and aria attributes), for
 * controls the rows below do not cover (a password with a Show button, a
 * controlled input).
 */
export function FieldRow({
  field: p,
  children,
}: {
  field: FieldProps;
  children: (control: ControlAttrs) => ReactNode;
}) {
  const i = ids(p);
  return (
    <div className="field">
      <label htmlFor={i.control}>
        {p.label}
        {p.required && <span aria-hidden="true"> *</span>}
      </label>
      {children(controlAttrs(p))}
      {p.hint && (
        <p className="field-hint" id={i.hint}>
          {p.hint}
        </p>
      )}
      {p.error && (
        <p className="field-error" id={i.error}>
          {p.error}
        </p>
      )}
    </div>
  );
}

export function TextField(
  p: Common & {
    type?: 'text' | 'email' | 'tel';
    autoComplete?: string;
    /** The on-screen keyboard to offer (`numeric` for a ZIP code). */
    inputMode?: 'numeric' | 'text';
    defaultValue?: string | undefined;
    maxLength?: number;
    placeholder?: string;
  },
) {
  return (
    <FieldRow field={p}>
      {(control) => (
        <input
          {...control}
          name={p.name}
          type={p.type ?? 'text'}
          autoComplete={p.autoComplete}
          inputMode={p.inputMode}
          required={p.required}
          defaultValue={p.defaultValue}
          maxLength={p.maxLength}
          placeholder={p.placeholder}
        />
      )}
    </FieldRow>
  );
}

export function TextAreaField(
  p: Common & { defaultValue?: string | undefined; maxLength?: number; rows?: number },
) {
  return (
    <FieldRow field={p}>
      {(control) => (
        <textarea
          {...control}
          name={p.name}
          rows={p.rows ?? 6}
          required={p.required}
          defaultValue={p.defaultValue}
          maxLength={p.maxLength}
        />
      )}
    </FieldRow>
  );
}

export function SelectField(
  p: Common & {
    options: readonly { value: string; label: string }[];
    placeholder: string;
    defaultValue?: string | undefined;
  },
) {
  return (
    <FieldRow field={p}>
      {(control) => (
        <select {...control} name={p.name} required={p.required} defaultValue={p.defaultValue ?? ''}>
          <option value="">{p.placeholder}</option>
          {p.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FieldRow>
  );
}

/** One checkbox with its label after it (consent, interests). */
export function CheckboxField(
  p: Omit<Common, 'label'> & {
    label: ReactNode;
    value?: string;
    defaultChecked?: boolean | undefined;
    /** Distinguishes checkboxes that share a name. */
    idSuffix?: string;
    labelClassName?: string;
  },
) {
  const id = `${p.idBase}-${p.name}${p.idSuffix ? `-${p.idSuffix}` : ''}`;
  const errorId = `${id}-error`;
  return (
    <div className="field field--check">
      <input
        id={id}
        name={p.name}
        type="checkbox"
        value={p.value ?? 'on'}
        required={p.required}
        defaultChecked={p.defaultChecked}
        aria-invalid={p.error ? true : undefined}
        aria-describedby={p.error ? errorId : undefined}
      />
      <label htmlFor={id} className={p.labelClassName}>
        {p.label}
      </label>
      {p.error && (
        <p className="field-error" id={errorId}>
          {p.error}
        </p>
      )}
    </div>
  );
}

/** A form-level message: the server's refusal, or a client check. */
export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="alert alert--error" role="alert">
      {message}
    </p>
  );
}
