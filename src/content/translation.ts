/*
 * The typed shape of a translation (docs/decisions/166-spanish.md). A translation of an English
 * copy module gives every piece of TEXT in it, and nothing else: numbers,
 * booleans and the facts named by FACT_KEYS (links, dates in ISO form, icon
 * names, ids, addresses) come from the English module, so a fact is still
 * declared once. A missing text fails the type check; `localize` merges the
 * two at build time, and `textEntries` lists every text by key for the
 * staleness check (tests/unit/i18n-staleness.test.ts).
 */

/** Keys whose string values are facts, never words: taken from the English module as they are. */
export const FACT_KEYS = [
  'href',
  'iso',
  'icon',
  'videoId',
  'id',
  'status',
  'fallbackImage',
  'stateCode',
] as const;
type FactKey = (typeof FACT_KEYS)[number];
/** A fact: a string under one of FACT_KEYS (a phrase function under such a key is still text). */
const isFact = (key: string, value: unknown) =>
  typeof value === 'string' && (FACT_KEYS as readonly string[]).includes(key);
type IsFact<K, V> = K extends FactKey ? (V extends string ? true : false) : false;

type Text = string | ((...args: never[]) => string);

/** Whether a value type holds any text to translate. */
type HasText<T> = [T] extends [never]
  ? false
  : T extends Text
    ? true
    : T extends readonly (infer E)[]
      ? HasText<E>
      : T extends object
        ? true extends { [K in keyof T]-?: IsFact<K, T[K]> extends true ? false : HasText<T[K]> }[keyof T]
          ? true
          : false
        : false;

/** The translation of a value: the same shape, its texts only. */
export type Translation<T> = T extends string
  ? string
  : T extends (...args: infer A) => string
    ? (...args: A) => string
    : T extends readonly (infer E)[]
      ? readonly Translation<E>[]
      : T extends object
        ? {
            [
              K in keyof T as IsFact<K, T[K]> extends true ? never : HasText<T[K]> extends true ? K : never
            ]: Translation<T[K]>;
          }
        : never;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The English value with its texts replaced by the translation's. Where the
 * translation lacks a text (only possible if the type check was bypassed),
 * the English stays, and the staleness check names the key as missing.
 */
export function localize<T>(english: T, translation: Translation<T> | undefined): T {
  if (translation === undefined) return english;
  if (typeof english === 'string' || typeof english === 'function') return translation as T;
  if (Array.isArray(english)) {
    const items = translation as readonly unknown[];
    return english.map((item: unknown, i) => localize(item, items[i] as Translation<unknown>)) as T;
  }
  if (isPlainObject(english)) {
    const texts = translation as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(english)) {
      out[key] = isFact(key, value) ? value : localize(value, texts[key] as Translation<unknown>);
    }
    return out as T;
  }
  return english;
}

/**
 * What a text says: a string itself; a phrase built from arguments
 * ("Page 2 of 5") called with numbered placeholders, so "Page {0} of {1}"
 * stands for it whatever the build tool does to the function's source.
 */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'function') {
    const fn = value as (...args: string[]) => unknown;
    const result = fn(...Array.from({ length: fn.length }, (_, i) => `{${i}}`));
    return typeof result === 'string' ? result : undefined;
  }
  return undefined;
}

/** Every text of a value by its key path ("pages.blogCopy.pager.older"), in the rules of `Translation`. */
export function textEntries(value: unknown, prefix: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, key: string) => {
    const text = textOf(v);
    if (text !== undefined) out.set(key, text);
    else if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${key}.${i}`));
    else if (isPlainObject(v))
      for (const [k, item] of Object.entries(v)) if (!isFact(k, item)) walk(item, `${key}.${k}`);
  };
  walk(value, prefix);
  return out;
}
