import { describe, expect, it } from 'vitest';
import {
  fillMergeFields,
  GREETING_NAME_MAX_CHARS,
  greeting,
  greetingName,
  staffShown,
} from '../../src/lib/merge-fields.ts';
import { HOSTILE, INVISIBLE, REAL, REPRODUCTIONS, TOO_LONG } from '../fixtures/hostile-names.ts';

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

describe('fillMergeFields: the one filler of every channel', () => {
  const T = '<p>Hi {firstName}, {firstName}!</p>';

  it('puts a real name in as typed: escaped in HTML, plain in subjects and texts', () => {
    for (const n of REAL) {
      expect(fillMergeFields('Hi {firstName}!', { firstName: n }, 'friend', 'text')).toBe(`Hi ${n}!`);
      const html = fillMergeFields(T, { firstName: n }, 'friend', 'html');
      expect(html).toBe(`<p>Hi ${n.replace("'", '&#39;')}, ${n.replace("'", '&#39;')}!</p>`);
    }
  });

  it('takes the fallback for anything that is not a name, in every format', () => {
    for (const n of [...HOSTILE, ...INVISIBLE, TOO_LONG, '', '   ']) {
      for (const format of ['html', 'text'] as const)
        expect(fillMergeFields('Hi {firstName}!', { firstName: n }, 'friend', format), n).toBe('Hi friend!');
    }
  });

  it('the fallback is data too: escaped in HTML, one line in a subject', () => {
    expect(fillMergeFields(T, { firstName: '' }, '<b>you</b>', 'html')).toBe(
      '<p>Hi &lt;b&gt;you&lt;/b&gt;, &lt;b&gt;you&lt;/b&gt;!</p>',
    );
    expect(fillMergeFields('Hi {firstName}', { firstName: '' }, 'dear\nfriend', 'text')).toBe(
      'Hi dear friend',
    );
  });

  it('refuses host names however they are written, keeps initials', () => {
    for (const n of ['www.x.com', 'x.co', 'Ana.Smith', 'www-evil', 'http-evil', "Ana'www"])
      expect(greetingName(n), n).toBeNull();
    for (const n of ['J.R. Smith', 'Martin Luther King Jr.', 'J. Smith']) expect(greetingName(n), n).toBe(n);
  });

  it('leaves everything else in the template as it is', () => {
    expect(fillMergeFields('No fields {lastName} {firstname}', { firstName: 'Ana' }, 'friend', 'html')).toBe(
      'No fields {lastName} {firstname}',
    );
  });
});

describe('staffShown: what a visitor typed, for staff, as inert text', () => {
  it('quotes links and host names so no mail client makes them live; keeps every word', () => {
    expect(staffShown(REPRODUCTIONS.volunteerLink)).toBe(
      '<a href="https[:]//evil[.]example/ballot">Your ballot was REJECTED - fix it here</a>',
    );
    expect(staffShown(REPRODUCTIONS.textInstruction)).toBe(
      'Your polling place moved, vote at evil[.]example/new',
    );
    expect(staffShown('see www.x.com or me@mail.example.org')).toBe(
      'see www[.]x[.]com or me@mail[.]example[.]org',
    );
  });

  it('shows invisible characters by their code point; keeps line breaks and real names', () => {
    expect(staffShown('Ana\u202eeilav')).toBe('Ana[U+202E]eilav');
    expect(staffShown('\ufeffAna\u200b')).toBe('[U+FEFF]Ana[U+200B]');
    expect(staffShown('Ana\u0007')).toBe('Ana[U+0007]');
    expect(staffShown('line one\r\nline two\tend')).toBe('line one\r\nline two\tend');
    for (const n of [...REAL, 'J.R. Smith', '3.5 miles', '1 Canal St. Apt 2']) expect(staffShown(n)).toBe(n);
  });
});
