import type { FormUi } from '../../content/ui.ts';
import type { Lang } from '../../lib/lang.ts';
import {
  FIELD_MAX,
  NAME_CHARACTERS_MESSAGE,
  TEXT_SIGNUP_PHONE_NEEDED,
  type FormInput,
} from '../../lib/schemas/public-forms.ts';

/**
 * A field's error message in the page's language (docs/decisions/166-spanish.md). The server
 * answers in English (FIELD_MESSAGES in public-forms.ts); on a page in another
 * language each field shows its own translated message instead, the server's
 * only where the translation has none.
 */
export function fieldMessageIn(lang: Lang, words: FormUi) {
  const own: Record<string, string> = { ...words.fields, smsConsent: words.textSignup.consentText };
  // A field with more than one server message: the message names its translation.
  const byMessage: Record<string, string> = {
    [TEXT_SIGNUP_PHONE_NEEDED]: words.textSignup.phoneNeeded,
    [NAME_CHARACTERS_MESSAGE]: words.nameCharacters,
  };
  return (name: string, message: string | undefined): string | undefined =>
    message === undefined || lang === 'en' ? message : (byMessage[message] ?? own[name] ?? message);
}

/** A refill value that is text (a checkbox's or a list's value is not a field's default text). */
export const textValue = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * The props every field of a public form repeats, by field name: the id base, the name, the refill after a refused
 * post, the length cap (FIELD_MAX) and the error in the page's language. A form spreads them and adds its own
 * label, type and autocomplete: `<TextField {...field('email')} label={words.email} type="email" />`.
 */
export function fieldPropsIn(
  idBase: string,
  lang: Lang,
  words: FormUi,
  values: FormInput,
  errors: Record<string, string | undefined>,
) {
  const message = fieldMessageIn(lang, words);
  return (name: string) => ({
    idBase,
    name,
    defaultValue: textValue(values[name]),
    error: message(name, errors[name]),
    ...(name in FIELD_MAX ? { maxLength: FIELD_MAX[name as keyof typeof FIELD_MAX] } : {}),
  });
}
