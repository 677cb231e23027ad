import { describe, expect, it } from 'vitest';
import { GREETING_NAME_MAX_CHARS, greeting, greetingName } from '../../src/lib/merge-fields.ts';

describe('greeting: names are not a channel (docs/decisions/075-names-are-not-a-channel.md)', () => {
  it('greets real names by name, in any script, with accents, apostrophes, hyphens and initials', () => {
    const names = [
      'Ana',
      'Nguyễn Thị Minh Khai',
      'Trần Văn Ơn',
      'José Ramírez',
      'María de los Ángeles Fernández',
      'Begoña Muñoz-Peña',
      "Seán O'Brien",
      'D’Angelo Batiste',
      'Jean-Luc Picard',
      'J.R. Smith',
      'Martin Luther King Jr.',
      'Zoë Ångström',
      'Αλέξανδρος',
      '李小龍',
      'Renée',
    ];
    for (const n of names) {
      expect(greetingName(n), n).toBe(n);
      expect(greeting(n)).toBe(`Hi ${n},`);
      expect(greeting(n, 'es')).toBe(`Hola, ${n}:`);
    }
  });

  it('collapses spaces and uses the composed (NFC) form of the name', () => {
    expect(greetingName('  Ana   María  ')).toBe('Ana María');
    // "é" typed as e + combining acute accent.
    expect(greetingName('Rene\u0301e')).toBe('Renée');
  });

  it('greets neutrally when the "name" is a message, a link, an address or a number', () => {
    const attacks = [
      'Your ballot was rejected, fix it at http://evil.example/fix',
      'Your ballot was rejected fix it at evil dot com',
      'http://evil.example',
      'https://bit.ly/x',
      'www evil com',
      'evil.com',
      'vote.example',
      'Visit bit.ly',
      'someone@example.org',
      'Call 504-555-0100',
      'Ana\nYour ballot was rejected',
      'Polls moved: vote Wednesday',
      'Ana (urgent)',
      'Ana!',
      '<b>Ana</b>',
      'Ana\u200bMaría',
      'Ana\u202eairaM',
      '-Ana',
      "Ana''",
      'A'.repeat(GREETING_NAME_MAX_CHARS + 1),
      'One Two Three Four Five Six Seven',
      '',
      '   ',
    ];
    for (const a of attacks) {
      expect(greetingName(a), JSON.stringify(a)).toBeNull();
      expect(greeting(a)).toBe('Hello,');
      expect(greeting(a, 'es')).toBe('Hola:');
    }
  });

  it('a name of exactly the limit is still greeted', () => {
    const n = 'A'.repeat(GREETING_NAME_MAX_CHARS);
    expect(greetingName(n)).toBe(n);
  });
});
