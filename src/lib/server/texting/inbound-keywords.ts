import { RESUBSCRIBE_KEYWORDS } from '../../../content/consent.ts';
import type { Lang } from '../../lang.ts';

/*
 * What an inbound text asks for (docs/decisions/151-texting.md): a pure rule, no I/O, unit-tested in
 * tests/unit/inbound-keywords.test.ts. The inbound webhook (sms-webhook.ts) acts on its answer.
 */

export type InboundKind = 'stop' | 'start' | 'help' | 'confirm' | 'cancel' | 'other';

/** The kinds that are Twilio keywords (opt-out, opt-in, help): the answers to a shift's question are not. */
type KeywordKind = 'stop' | 'start' | 'help';

/**
 * Every keyword the inbound webhook acts on, by kind and language (docs/decisions/166-spanish.md):
 * the one list that docs/deploy.md gives for Twilio's Advanced Opt-Out (a unit
 * test holds the two together, since carrier-level keywords must match ours).
 * Matched whole, case- and accent-insensitively.
 */
export const INBOUND_KEYWORDS = {
  // Twilio's own opt-out words, then the Spanish ones.
  stop: {
    en: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'],
    es: ['ALTO', 'PARAR', 'CANCELAR', 'DETENER'],
  },
  start: { en: [RESUBSCRIBE_KEYWORDS.en, 'UNSTOP', 'YES'], es: [RESUBSCRIBE_KEYWORDS.es, 'INICIAR'] },
  help: { en: ['HELP', 'INFO'], es: ['AYUDA'] },
} as const satisfies Record<KeywordKind, Record<Lang, readonly string[]>>;

/**
 * The answers to a shift's day-before question (docs/decisions/181-shifts.md, "The sequence"): whole messages,
 * matched like the keywords (case and accents aside: "Sí", "si", "SÍ"). They mean something only when a question
 * is waiting for the number (the webhook asks); STOP and HELP are never among them, and "YES" stays START.
 */
export const SHIFT_ANSWER_WORDS = {
  confirm: { en: ['1'], es: ['SI'] },
  cancel: { en: ['2'], es: ['NO'] },
} as const satisfies Record<'confirm' | 'cancel', Record<Lang, readonly string[]>>;

/** Keyword -> its kind and language. */
const KEYWORD_INDEX = new Map<string, { kind: Exclude<InboundKind, 'other'>; lang: Lang }>();
for (const [kind, byLang] of [...Object.entries(INBOUND_KEYWORDS), ...Object.entries(SHIFT_ANSWER_WORDS)] as [
  Exclude<InboundKind, 'other'>,
  Record<Lang, readonly string[]>,
][]) {
  for (const [lang, words] of Object.entries(byLang) as [Lang, readonly string[]][])
    for (const word of words) KEYWORD_INDEX.set(word, { kind, lang });
}

/** Plain-language stop requests: a person writing a sentence instead of a keyword. */
const PLAIN_STOP: Record<Lang, RegExp> = {
  en: /\b(stop (texting|messaging|sending|contacting)|unsubscribe|remove me|take me off|opt me out|opt out|do not (text|message|contact)|don'?t (text|message|contact)|no more (texts|messages|text messages)|leave me alone|wrong number)\b/i,
  // Matched on the text without accents ("más" -> "mas").
  es: /\b(no (me )?(manden|envien|escriban|mande|envie|escriba) mas|ya no (quiero|deseo) (recibir )?(mas )?(mensajes|textos)|no quiero (recibir )?(mas )?(mensajes|textos)|borrenme|quitenme|sacarme de (la|su) lista|numero equivocado|dejenme en paz)\b/i,
};

/** Upper case without accents or diacritics ("Ayúda" -> "AYUDA"). */
const withoutAccents = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '');

/** What an inbound text asks for: its kind, whether it was a keyword, and the language it asked in. */
export interface InboundRequest {
  kind: InboundKind;
  /** A whole-message keyword or answer (Twilio's Advanced Opt-Out answers STOP and START keywords itself). */
  keyword: boolean;
  /** Null when it asks for nothing we act on. */
  lang: Lang | null;
}

/**
 * What an inbound text asks for, and the language it asked in (null when it
 * asks for nothing we act on).
 */
export function classifyInbound(body: string): InboundRequest {
  const plain = withoutAccents(body);
  const compact = plain.toUpperCase().replace(/[^A-Z]/g, '');
  // A digit answer is the whole message but its punctuation and spaces ("1", " 2. ").
  const digits = /[A-Z]/i.test(plain) ? '' : plain.replace(/[^0-9]/g, '');
  const hit = KEYWORD_INDEX.get(compact || digits);
  if (hit) return { kind: hit.kind, keyword: true, lang: hit.lang };
  if (PLAIN_STOP.en.test(plain)) return { kind: 'stop', keyword: false, lang: 'en' };
  if (PLAIN_STOP.es.test(plain)) return { kind: 'stop', keyword: false, lang: 'es' };
  return { kind: 'other', keyword: false, lang: null };
}
