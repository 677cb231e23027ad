/**
 * For islands that enhance a server-rendered <form> (the RSVP form, the plan to vote): shows a refusal in the
 * form's alert (`[data-form-alert]`) and each field's message in its `[data-error-for="<name>"]` element, wiring
 * aria-invalid and aria-describedby; `showFormErrors(form, null)` clears them all.
 */
export function showFormErrors(
  form: HTMLFormElement,
  message: string | null,
  fields: Record<string, string> = {},
): void {
  const alert = form.querySelector<HTMLElement>('[data-form-alert]');
  if (alert) {
    alert.textContent = message ?? '';
    alert.hidden = !message;
  }
  for (const el of form.querySelectorAll<HTMLElement>('[data-error-for]')) {
    const name = el.dataset.errorFor ?? '';
    const input = form.elements.namedItem(name);
    const text = fields[name];
    el.textContent = text ?? '';
    el.hidden = !text;
    if (input instanceof HTMLElement) {
      if (text) {
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', el.id);
      } else {
        input.removeAttribute('aria-invalid');
        input.removeAttribute('aria-describedby');
      }
    }
  }
}

/**
 * The submit button of a server-rendered form while its JSON submit is on its way: disabled and saying so
 * (`words.submitting`), then back to `words.submit`.
 */
export function markBusy(
  button: HTMLButtonElement | null,
  busy: boolean,
  words: { submit: string; submitting: string },
): void {
  if (!button) return;
  button.disabled = busy;
  button.textContent = busy ? words.submitting : words.submit;
}
