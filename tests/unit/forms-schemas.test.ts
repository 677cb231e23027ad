import { describe, expect, it } from 'vitest';
import {
  ContactMessageSchema,
  TextSignupSchema,
  VolunteerSignupSchema,
} from '../../src/lib/schemas/forms.ts';

import { TEXT_SIGNUP_PHONE_NEEDED } from '../../src/lib/schemas/public-forms.ts';
const first = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message;

describe('form schemas', () => {
  it('text sign-up: trims the name, normalises phone and email, requires consent', () => {
    const ok = TextSignupSchema.parse({
      firstName: '  Ada ',
      phone: '504.555.0100',
      email: ' A@B.CO ',
      smsConsent: true,
      captcha: 'token',
    });
    expect(ok).toEqual({
      firstName: 'Ada',
      phone: '+15045550100',
      email: 'a@b.co',
      smsConsent: true,
      captcha: 'token',
    });
    expect(
      TextSignupSchema.parse({
        firstName: 'A',
        phone: '',
        email: 'a@b.co',
        smsConsent: true,
        captcha: 'token',
      }),
    ).toEqual({
      firstName: 'A',
      email: 'a@b.co',
      smsConsent: true,
      captcha: 'token',
    });
    // Neither phone nor email: nobody could be reached (docs/decisions/151-texting.md).
    const unreachable = TextSignupSchema.safeParse({
      firstName: 'A',
      phone: '',
      email: '',
      smsConsent: true,
      captcha: 'token',
    });
    expect(unreachable.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['phone', TEXT_SIGNUP_PHONE_NEEDED],
    ]);
    // The bot check (docs/decisions/151-texting.md) is optional in the schema: a JSON request without it is refused by
    // the steps of every public form (src/lib/server/public-forms/accept.ts; 400, the other forms' message), a form post without JavaScript takes the
    // no-script budget instead (tests/api/security-sms.test.ts).
    expect(
      TextSignupSchema.safeParse({ firstName: 'A', phone: '5045550100', smsConsent: true }).success,
    ).toBe(true);
    expect(first(TextSignupSchema.safeParse({ firstName: 'A', smsConsent: true, captcha: '' }))).toBe(
      'Please complete the CAPTCHA',
    );
    expect(first(TextSignupSchema.safeParse({ firstName: 7, smsConsent: true }))).toBe(
      'Please enter your first name.',
    );
    expect(first(TextSignupSchema.safeParse({ firstName: 'A', smsConsent: 1 }))).toBe(
      'Please check the box to consent to receiving text messages.',
    );
    expect(first(TextSignupSchema.safeParse({ firstName: 'A', phone: 5045550100, smsConsent: true }))).toBe(
      'Please enter a valid phone number',
    );
  });

  it('volunteer and contact: captcha and required fields have their messages even when missing', () => {
    expect(first(VolunteerSignupSchema.safeParse({}))).toBe('First name is required');
    const v = VolunteerSignupSchema.safeParse({
      firstName: 'a',
      lastName: 'b',
      email: 'a@b.co',
      phone: '5045550100',
      address1: 'x',
      city: 'y',
      state: 'LA',
    });
    expect(first(v)).toBe('Please complete the CAPTCHA');
    const c = ContactMessageSchema.safeParse({
      name: 'a',
      email: 'a@b.co',
      subject: 'general',
      message: 'hi',
    });
    expect(first(c)).toBe('Please complete the CAPTCHA');
  });
});
