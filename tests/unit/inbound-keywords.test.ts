import { describe, expect, it } from 'vitest';
import { classifyInbound, INBOUND_KEYWORDS } from '../../src/lib/server/texting/inbound-keywords.ts';

/** The inbound classifier is a pure rule: what a reply asks for, and in which language (no store, no clock). */
describe('classifyInbound: what an inbound text asks for', () => {
  it.each([
    ['STOP', 'stop', 'en'],
    ['stop', 'stop', 'en'],
    [' Stop. ', 'stop', 'en'],
    ['UNSUBSCRIBE', 'stop', 'en'],
    ['ALTO', 'stop', 'es'],
    ['alto', 'stop', 'es'],
    ['Álto!', 'stop', 'es'],
    ['PARAR', 'stop', 'es'],
    ['HELP', 'help', 'en'],
    ['info', 'help', 'en'],
    ['AYUDA', 'help', 'es'],
    ['Ayúda', 'help', 'es'],
    ['START', 'start', 'en'],
    ['unstop', 'start', 'en'],
    ['COMENZAR', 'start', 'es'],
  ] as const)('the keyword %j is %s (%s)', (body, kind, lang) => {
    expect(classifyInbound(body)).toEqual({ kind, keyword: true, lang });
  });

  it.each([
    ['please stop texting me', 'en'],
    ['Please remove me from this list', 'en'],
    ["don't text me again", 'en'],
    ['wrong number', 'en'],
    ['Ya no quiero recibir mensajes', 'es'],
    ['no me manden más', 'es'],
    ['número equivocado', 'es'],
  ] as const)('the sentence %j is a stop request in %s (not a keyword)', (body, lang) => {
    expect(classifyInbound(body)).toEqual({ kind: 'stop', keyword: false, lang });
  });

  it.each([
    ['1', 'confirm', 'en'],
    [' 1. ', 'confirm', 'en'],
    ['SÍ', 'confirm', 'es'],
    ['si', 'confirm', 'es'],
    ['Sí!', 'confirm', 'es'],
    ['2', 'cancel', 'en'],
    ['NO', 'cancel', 'es'],
    ['no.', 'cancel', 'es'],
  ] as const)(
    'the answer %j to a shift question is %s (docs/decisions/181-shifts.md)',
    (body, kind, lang) => {
      expect(classifyInbound(body)).toEqual({ kind, keyword: true, lang });
    },
  );

  it.each([
    ['YES', 'start'],
    ['STOP', 'stop'],
    ['CANCEL', 'stop'],
    ['no me manden más', 'stop'],
    ['12', 'other'],
    ['1 2', 'other'],
    ['Sí, claro', 'other'],
    ['no way', 'other'],
  ] as const)('%j stays %s beside the shift answers', (body, kind) => {
    expect(classifyInbound(body).kind).toBe(kind);
  });

  it.each(['Who is this?', '¿Quién es?', 'stopwatch for sale', 'Thanks!', '', 'STOP IT NOW PLEASE OK'])(
    '%j asks for nothing we act on',
    (body) => {
      expect(classifyInbound(body)).toEqual({ kind: 'other', keyword: false, lang: null });
    },
  );

  it('every listed keyword is recognised whole, in its kind and language, whatever its case', () => {
    for (const [kind, byLang] of Object.entries(INBOUND_KEYWORDS))
      for (const [lang, words] of Object.entries(byLang) as [string, readonly string[]][])
        for (const w of words) {
          expect(classifyInbound(w)).toEqual({ kind, keyword: true, lang });
          expect(classifyInbound(w.toLowerCase())).toEqual({ kind, keyword: true, lang });
        }
  });

  it('no keyword is listed twice (one kind and one language each)', () => {
    const all = Object.values(INBOUND_KEYWORDS).flatMap((byLang): string[] =>
      Object.values<readonly string[]>(byLang).flat(),
    );
    expect(new Set(all).size).toBe(all.length);
  });
});
