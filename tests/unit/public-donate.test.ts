import { describe, expect, it } from 'vitest';
import { buildDonationUrl, DONATION_PRESETS } from '../../src/lib/donate.ts';
import { inviteCodeOfCookies, inviteCodeOfRefcode, inviteRefcode } from '../../src/lib/invite-link.ts';

const BASE = 'https://secure.actblue.com/donate/avery-for-mayor';

describe('buildDonationUrl', () => {
  it('puts each preset into the amount parameter', () => {
    expect(DONATION_PRESETS).toEqual([25, 50, 100, 250, 500, 1000]);
    for (const amount of DONATION_PRESETS) {
      const url = new URL(buildDonationUrl({ baseUrl: BASE, amount })!);
      expect(url.origin + url.pathname).toBe(BASE);
      expect(url.searchParams.get('amount')).toBe(String(amount));
    }
  });

  it('uses a configured parameter name and keeps the provider URL’s own parameters', () => {
    const url = new URL(buildDonationUrl({ baseUrl: `${BASE}?embed=1`, amount: 50, amountParam: 'amt' })!);
    expect(url.searchParams.get('amt')).toBe('50');
    expect(url.searchParams.get('amount')).toBeNull();
    expect(url.searchParams.get('embed')).toBe('1');
  });

  it('carries refcode and utm_* from the page, nothing else', () => {
    const url = new URL(
      buildDonationUrl({
        baseUrl: BASE,
        amount: 100,
        pageSearch: '?refcode=email-0917&utm_source=fb&utm_campaign=gotv&session=abc&amount=999',
      })!,
    );
    expect(url.searchParams.get('refcode')).toBe('email-0917');
    expect(url.searchParams.get('utm_source')).toBe('fb');
    expect(url.searchParams.get('utm_campaign')).toBe('gotv');
    expect(url.searchParams.get('session')).toBeNull();
    expect(url.searchParams.get('amount')).toBe('100');
  });

  it("carries the visitor's invite code as refcode2 beside the campaign's refcode; a page's own refcode2 never passes", () => {
    const url = new URL(
      buildDonationUrl({
        baseUrl: BASE,
        amount: 25,
        pageSearch: '?refcode=email-0917&refcode2=invite_zzzzzzzzzz',
        inviteCode: inviteCodeOfCookies('theme=dark; invite=abcdefghij; other=1'),
      })!,
    );
    expect(url.searchParams.get('refcode')).toBe('email-0917');
    expect(url.searchParams.get('refcode2')).toBe('invite_abcdefghij');
    expect(inviteCodeOfRefcode(url.searchParams.get('refcode2'))).toBe('abcdefghij');
    // No invite cookie, or a malformed one: no refcode2, whatever the page's address says.
    for (const cookies of ['', 'invite=', 'invite=ABCDEFGHIJ', 'invite=abc', 'xinvite=abcdefghij'])
      expect(
        new URL(
          buildDonationUrl({
            baseUrl: BASE,
            amount: 25,
            pageSearch: '?refcode2=invite_zzzzzzzzzz',
            inviteCode: inviteCodeOfCookies(cookies),
          })!,
        ).searchParams.has('refcode2'),
        cookies,
      ).toBe(false);
    expect(
      [inviteRefcode('abcdefghij'), 'invite_abc', 'sept-email-1', 'invite_abcdefghij1'].map(
        inviteCodeOfRefcode,
      ),
    ).toEqual(['abcdefghij', null, null, null]);
  });

  it('leaves the amount out when none is chosen', () => {
    expect(new URL(buildDonationUrl({ baseUrl: BASE, amount: null })!).searchParams.has('amount')).toBe(
      false,
    );
  });

  it('returns null without a usable provider URL', () => {
    expect(buildDonationUrl({ baseUrl: undefined, amount: 25 })).toBeNull();
    expect(buildDonationUrl({ baseUrl: '', amount: 25 })).toBeNull();
    expect(buildDonationUrl({ baseUrl: 'not a url', amount: 25 })).toBeNull();
    expect(buildDonationUrl({ baseUrl: 'javascript:alert(1)', amount: 25 })).toBeNull();
  });
});
