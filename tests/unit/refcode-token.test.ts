import { describe, expect, it } from 'vitest';
import { refcodeToken, SOURCE_PATTERN, refcodeSource } from '../../src/lib/schemas/overview.ts';
import { refcodeOfPost } from '../../src/lib/server/public-forms/refcode.ts';

/*
 * A campaign link's refcode as a sign-up source (docs/decisions/180-overview.md, "Refcodes"): a short token or
 * nothing. A hostile value is dropped, so it can never reach a key, a page or an export.
 */

const post = (referer: string | null, input: unknown = {}) =>
  refcodeOfPost(
    new Request('http://localhost:4321/api/email-subscribers', {
      method: 'POST',
      headers: referer ? { referer } : {},
    }),
    input,
  );

describe('refcodeToken', () => {
  it('keeps a short token of letters, digits, "-" and "_"', () => {
    for (const ok of ['a', 'fall-mailer', 'door_2', 'X'.repeat(40), '2026-11-03'])
      expect(refcodeToken(ok)).toBe(ok);
  });

  it('drops markup, spaces, dots, unicode, empty, over 40 characters and non-strings', () => {
    for (const bad of [
      '<script>alert(1)</script>',
      '"><img src=x onerror=alert(1)>',
      'a b',
      'a.b',
      'a/b',
      'ref%3Cb',
      'café',
      'ｆｕｌｌ',
      '🙂',
      'a\u200b',
      '',
      'X'.repeat(41),
      'x'.repeat(10_240),
      '=cmd|calc!A1',
      null,
      undefined,
      42,
      ['a'],
    ])
      expect(refcodeToken(bad)).toBeNull();
  });

  it('a kept token is a stored source token', () => {
    expect(SOURCE_PATTERN.test(refcodeSource(refcodeToken('fall-mailer')!))).toBe(true);
  });
});

describe('refcodeOfPost', () => {
  it('reads the refcode of the page the form was on (its Referer), with or without other tags', () => {
    expect(post('http://localhost:4321/volunteer?refcode=fall-mailer')).toBe('fall-mailer');
    expect(post('http://localhost:4321/es/?utm_source=x&refcode=door_2#form')).toBe('door_2');
  });

  it('a form field named refcode is read first', () => {
    expect(post('http://localhost:4321/?refcode=page-code', { refcode: 'field-code' })).toBe('field-code');
    expect(post(null, { refcode: '<b>' })).toBeNull();
  });

  it('nothing without a Referer, without a refcode, with a hostile one or from another site', () => {
    expect(post(null)).toBeNull();
    expect(post('http://localhost:4321/volunteer')).toBeNull();
    expect(post('not a url')).toBeNull();
    expect(post(`http://localhost:4321/?refcode=${encodeURIComponent('<script>x</script>')}`)).toBeNull();
    expect(post(`http://localhost:4321/?refcode=${'a'.repeat(10_240)}`)).toBeNull();
    expect(post(`http://localhost:4321/?refcode=${encodeURIComponent('café')}`)).toBeNull();
    expect(post('https://elsewhere.example/?refcode=theirs')).toBeNull();
  });
});
