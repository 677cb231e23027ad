// @ts-check
/**
 * What the page script's inline loader (page-script-loader.mjs) hands to the
 * script it starts: the key press that started it, which happened before the
 * script had any listener (F8 pressed before the page had loaded is then still
 * F8). Plain and browser-safe: the loader's source and the page script both
 * read the one name here.
 */
export const START_KEY_PROPERTY = 'pageScriptStartKey';

/**
 * The key press that started the page script, if one did and focus has not
 * moved since (a visitor who pressed it and then went on with Tab has moved on).
 * @param {Document} doc
 * @returns {KeyboardEvent | null}
 */
export function startingKey(doc) {
  /** @type {KeyboardEvent | undefined} */
  const event = Reflect.get(doc, START_KEY_PROPERTY);
  if (!event) return null;
  return event.target === (doc.activeElement ?? doc.body) ? event : null;
}
