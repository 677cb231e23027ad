import type { FormUi } from '../../content/ui.ts';
import type { Lang } from '../../lib/lang.ts';

/**
 * A field's error message in the page's language (issue 12). The server
 * answers in English (FIELD_MESSAGES in public-forms.ts); on a page in another
 * language each field shows its own translated message instead, the server's
 * only where the translation has none.
 */
export function fieldMessageIn(lang: Lang, words: FormUi) {
  const own: Record<string, string> = { ...words.fields, smsConsent: words.textSignup.consentText };
  return (name: string, message: string | undefined): string | undefined =>
    message === undefined || lang === 'en' ? message : (own[name] ?? message);
}
