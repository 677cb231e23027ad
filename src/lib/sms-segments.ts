import { SegmentedMessage } from 'sms-segments-calculator';

/**
 * Characters and segments of a text as the carriers bill it (Twilio's own calculator, the
 * sms-segments-calculator package): GSM-7 texts take 160 characters in one segment and 153 in each
 * of several; one character outside GSM-7 (an emoji, a curly quote, most accented capitals) turns the
 * whole text into UCS-2: 70 characters, then 67 a segment, and an emoji counts as two.
 * The dashboard's live counter and the server's estimate read the same function.
 */
export interface SegmentCount {
  encoding: 'GSM-7' | 'UCS-2';
  characters: number;
  segments: number;
  /** The characters that forced UCS-2 (empty for GSM-7). */
  unicode: string[];
}

export function countSegments(text: string): SegmentCount {
  const m = new SegmentedMessage(text);
  return {
    encoding: m.encodingName === 'GSM-7' ? 'GSM-7' : 'UCS-2',
    characters: m.numberOfCharacters,
    segments: m.segmentsCount,
    unicode: m.getNonGsmCharacters(),
  };
}
