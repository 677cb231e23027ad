import { SegmentedMessage } from 'sms-segments-calculator';
import { describe, expect, it } from 'vitest';
import { countSegments } from '../../src/lib/sms-segments.ts';

/** The counter against Twilio's calculator (src/lib/sms-segments.ts counts common texts itself). */
const twilio = (text: string) => {
  const m = new SegmentedMessage(text);
  return {
    encoding: m.encodingName,
    characters: m.numberOfCharacters,
    segments: m.segmentsCount,
    unicode: m.getNonGsmCharacters(),
  };
};

describe('segments (Twilio’s calculator)', () => {
  it('GSM-7 fits 160 in one segment, 153 a segment after; an emoji makes it UCS-2', () => {
    expect(countSegments('a'.repeat(160))).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    expect(countSegments('a'.repeat(161))).toMatchObject({ encoding: 'GSM-7', segments: 2 });
    expect(countSegments('a'.repeat(306))).toMatchObject({ encoding: 'GSM-7', segments: 2 });
    expect(countSegments('a'.repeat(307))).toMatchObject({ encoding: 'GSM-7', segments: 3 });
    expect(countSegments('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', characters: 160, segments: 1 });
    expect(countSegments('á'.repeat(70))).toMatchObject({
      encoding: 'UCS-2',
      segments: 1,
      unicode: Array(70).fill('á'),
    });
    expect(countSegments('á'.repeat(71))).toMatchObject({ encoding: 'UCS-2', segments: 2 });
    expect(countSegments('Vote! 🗳️')).toMatchObject({ encoding: 'UCS-2', segments: 1 });
    expect(countSegments(`${'a'.repeat(69)}😀`)).toMatchObject({ encoding: 'UCS-2', segments: 2 });
  });

  it('agrees with the calculator on 800 random texts', () => {
    const alphabet = [
      ...'abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789.,!?:;-@£$¥èéùìòÇØøÅåÄÖÑÜ§¿äöñüà',
      ...'€[]{}~^|\\', // GSM-7 extension: two septets each
      ...'áíóúÁÉÍÓÚ¡“”‘’–—…', // Spanish and typographic: UCS-2
      '\n',
      '\r\n',
      '\r',
      '😀',
      '🗳️',
      'e\u0301', // a combining accent
      '👍🏽',
      '\u200d',
    ];
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 800; n += 1) {
      const len = Math.floor(random() * 420);
      // Mostly one or two kinds of character, as real texts are, so both encodings and every length appear.
      const pool = alphabet.slice(0, 1 + Math.floor(random() * alphabet.length));
      const rare = random() < 0.5 ? alphabet.length - 6 : pool.length;
      let text = '';
      for (let i = 0; i < len; i += 1) text += pool[Math.floor(random() * Math.min(pool.length, rare))]!;
      expect(countSegments(text), JSON.stringify(text)).toEqual(twilio(text));
    }
  }, 60_000);
});
