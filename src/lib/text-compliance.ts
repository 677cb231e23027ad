import { IDENTITY } from '../content/identity.ts';
import type { Lang } from './lang.ts';

/**
 * What every text carries (docs/decisions/152-broadcasts.md): the program's
 * name (the one registered with the carriers, so not translated) and the opt-out line in the
 * recipient's language. Both are added by the guard when the body lacks them, so no composer can
 * forget them; a body that already has them is sent as written.
 */
export const OPT_OUT_LINES: Record<Lang, string> = {
  en: 'Reply STOP to opt out.',
  es: 'Responda ALTO para cancelar.',
};

/** An opt-out instruction in either language (STOP, or the Spanish keywords the webhook honours). */
const HAS_OPT_OUT = /\b(STOP|ALTO|PARAR)\b/;

export function compliantText(body: string, lang: Lang): string {
  let text = body.trim();
  if (!text.includes(IDENTITY.smsProgramName)) text = `${IDENTITY.smsProgramName}: ${text}`;
  if (!HAS_OPT_OUT.test(text)) text = `${text} ${OPT_OUT_LINES[lang]}`;
  return text;
}
