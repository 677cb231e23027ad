import { SegmentedMessage } from 'sms-segments-calculator';
import UnicodeToGsm from 'sms-segments-calculator/dist/libs/UnicodeToGSM.js';

/**
 * Characters and segments of a text as the carriers bill it (Twilio's own calculator, the
 * sms-segments-calculator package): GSM-7 texts take 160 characters in one segment and 153 in each
 * of several; one character outside GSM-7 (an emoji, a curly quote, most accented capitals) turns the
 * whole text into UCS-2: 70 characters, then 67 a segment, and an emoji counts as two.
 * The dashboard's live counter and the server's estimate read the same function.
 *
 * The calculator splits the text into graphemes first, which costs about 2 ms a text: a 100,000-
 * recipient broadcast spent minutes of CPU on it. Texts in which every UTF-16 unit is a grapheme of
 * its own (Latin scripts, Spanish included, common punctuation and currency signs: `singleUnits`)
 * are counted here with the calculator's own rules and its GSM-7 table; any other text (emoji,
 * combining marks, other scripts) goes to the calculator. tests/unit/sms-segments.test.ts holds the
 * two equal on random texts.
 */
export interface SegmentCount {
  encoding: 'GSM-7' | 'UCS-2';
  characters: number;
  segments: number;
  /** The characters that forced UCS-2 (empty for GSM-7). */
  unicode: string[];
}

type GsmTable = Record<number, number[] | undefined>;
/** The calculator's table is CommonJS: Node hands its `exports` as the default, bundlers its `default`. */
const gsmModule = UnicodeToGsm as unknown as GsmTable & { default?: GsmTable };
const GSM: GsmTable = gsmModule.default ?? gsmModule;
/** Bits in one segment (140 octets), and in each of several (a 6-octet header takes the rest). */
const SINGLE_BITS = 1120;
const MULTI_BITS = 1120 - 48;

/**
 * True when no two UTF-16 units of `text` can join into one grapheme: only units below U+0300
 * (where "\r\n" is the one pair that joins), general punctuation from U+2010 to U+205E (no
 * joiners or direction marks) and currency signs.
 */
function singleUnits(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x300) {
      if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) return false;
    } else if (!((c >= 0x2010 && c <= 0x205e) || (c >= 0x20a0 && c <= 0x20c0))) return false;
  }
  return true;
}

/** Greedy packing of characters of the given sizes (bits), as the calculator packs them. */
function segmentsOf(sizes: number[]): number {
  const total = sizes.reduce((a, n) => a + n, 0);
  if (total <= SINGLE_BITS) return 1;
  let segments = 1;
  let used = 0;
  for (const n of sizes) {
    if (used + n > MULTI_BITS) {
      segments += 1;
      used = 0;
    }
    used += n;
  }
  return segments;
}

function fastCount(text: string): SegmentCount {
  const unicode: string[] = [];
  for (const ch of text) if (!GSM[ch.charCodeAt(0)]) unicode.push(ch);
  if (unicode.length === 0) {
    const sizes = Array.from(text, (ch) => 7 * GSM[ch.charCodeAt(0)]!.length);
    return {
      encoding: 'GSM-7',
      characters: sizes.reduce((a, n) => a + n / 7, 0),
      segments: segmentsOf(sizes),
      unicode,
    };
  }
  return {
    encoding: 'UCS-2',
    characters: text.length,
    segments: segmentsOf(Array<number>(text.length).fill(16)),
    unicode,
  };
}

export function countSegments(text: string): SegmentCount {
  if (singleUnits(text)) return fastCount(text);
  const m = new SegmentedMessage(text);
  return {
    encoding: m.encodingName === 'GSM-7' ? 'GSM-7' : 'UCS-2',
    characters: m.numberOfCharacters,
    segments: m.segmentsCount,
    unicode: m.getNonGsmCharacters(),
  };
}
