// @ts-check
/**
 * What the page script's inline loader (page-script-loader.mjs) hands to the
 * script it starts, which had no listener yet: the key press that started it
 * (F8 pressed before the page had loaded is then still F8), and the clicks on
 * server-rendered controls whose behaviour comes with the script (the home
 * carousel's Previous, Next and slideshow toggle). Plain and browser-safe: the loader's
 * source and the page script both read the names here.
 */
export const START_KEY_PROPERTY = 'pageScriptStartKey';

/** Where the loader keeps the early clicks: the clicked elements, in order. */
export const EARLY_CLICKS_PROPERTY = 'pageScriptEarlyClicks';

/**
 * The mark of an element whose controls' clicks the loader keeps until the
 * element is started (marked `data-ready`).
 */
export const EARLY_CLICKS_SELECTOR = '[data-early-clicks]:not([data-ready])';

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

/**
 * The elements inside `root` a visitor clicked before the page script started
 * it, in order; each is handed out once.
 * @param {Document} doc
 * @param {Element} root
 * @returns {Element[]}
 */
export function takeEarlyClicks(doc, root) {
  /** @type {Element[] | undefined} */
  const clicks = Reflect.get(doc, EARLY_CLICKS_PROPERTY);
  if (!clicks) return [];
  const mine = clicks.filter((element) => root.contains(element));
  Reflect.set(
    doc,
    EARLY_CLICKS_PROPERTY,
    clicks.filter((element) => !mine.includes(element)),
  );
  return mine;
}
