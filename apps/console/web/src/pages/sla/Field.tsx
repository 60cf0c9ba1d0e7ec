import { cloneElement, useId, type ReactElement } from 'react';

/**
 * A labelled control with the API's message for it below (a 422's field): the control is marked
 * `aria-invalid` and described by the message, so a screen reader reads it with the field.
 */
export function Field({ label, error, hint, children }: { label: string; error: string | null; hint?: string; children: ReactElement }) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const control = cloneElement(children as ReactElement<Record<string, unknown>>, {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described,
  });
  return (
    <div className="field">
      <label>
        {label}
        {control}
      </label>
      {hint && (
        <span className="muted" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <span className="error" id={`${id}-error`} data-field-error>
          {error}
        </span>
      )}
    </div>
  );
}
