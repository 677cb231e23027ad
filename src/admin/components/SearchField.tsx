import { useEffect, useId, useState, type ReactNode } from 'react';

/**
 * A list's search box, the last control of its toolbar (Inbox, People): labelled "Search", growing to fill the row,
 * with a placeholder or a hint under it saying what it searches.
 */
export function SearchField({
  value,
  onChange,
  placeholder,
  hint,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  hint?: ReactNode;
}) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="field toolbar__grow">
      <label htmlFor={id} className="field__label">
        Search
      </label>
      <input
        id={id}
        type="search"
        className="input"
        placeholder={placeholder}
        aria-describedby={hint ? hintId : undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint ? (
        <span id={hintId} className="field__hint">
          {hint}
        </span>
      ) : null}
    </div>
  );
}

/** `value` once it has stayed the same for `ms`: a search box's words go to the server when typing stops. */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
