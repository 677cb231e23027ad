import { describe, expect, it } from 'vitest';
import { CAPTCHA_REQUIRED, TEXT_SIGNUP_MESSAGES } from '../../src/lib/schemas/forms.ts';
import { categoryFor } from '../../src/lib/schemas/article.ts';
import {
  CAPTCHA_PROBLEM,
  forgotPasswordProblem,
  resetPasswordProblem,
  TEXT_SIGNUP_PROBLEMS,
  textSignupProblem,
} from '../../src/lib/client/validation.ts';
import { retryOutcome } from '../../src/lib/client/volunteer-outbox.ts';

describe('text sign-up validation order (spec section 5)', () => {
  it('uses exactly the shared schema messages', () => {
    expect(TEXT_SIGNUP_PROBLEMS).toEqual(TEXT_SIGNUP_MESSAGES);
  });
  it('checks the first name first, then consent', () => {
    expect(textSignupProblem({ firstName: '  ', smsConsent: false })).toEqual(TEXT_SIGNUP_MESSAGES.firstName);
    expect(textSignupProblem({ firstName: 'Ann', smsConsent: false })).toEqual(TEXT_SIGNUP_MESSAGES.consent);
    expect(textSignupProblem({ firstName: 'Ann', smsConsent: true })).toBeNull();
  });
  it('then the captcha, with the shared message', () => {
    expect(CAPTCHA_PROBLEM.title).toBe(CAPTCHA_REQUIRED);
    expect(textSignupProblem({ firstName: ' ', smsConsent: true, captcha: null })).toEqual(
      TEXT_SIGNUP_MESSAGES.firstName,
    );
    expect(textSignupProblem({ firstName: 'Ann', smsConsent: false, captcha: null })).toEqual(
      TEXT_SIGNUP_MESSAGES.consent,
    );
    expect(textSignupProblem({ firstName: 'Ann', smsConsent: true, captcha: null })).toEqual(CAPTCHA_PROBLEM);
    expect(textSignupProblem({ firstName: 'Ann', smsConsent: true, captcha: 'token' })).toBeNull();
  });
});

describe('reset password checks in order', () => {
  it('fields, then length, then match', () => {
    expect(resetPasswordProblem('', 'x')).toBe('Please fill in all fields');
    expect(resetPasswordProblem('abc', '')).toBe('Please fill in all fields');
    expect(resetPasswordProblem('abc', 'xyz')).toBe('Password must be at least 6 characters');
    expect(resetPasswordProblem('abcdef', 'abcdeg')).toBe('Passwords do not match');
    expect(resetPasswordProblem('abcdef', 'abcdef')).toBeNull();
  });
});

describe('forgot password email', () => {
  it('rejects invalid addresses', () => {
    for (const bad of ['', 'a', 'a@', 'a@b', '@b.com', 'a b@c.com']) {
      expect(forgotPasswordProblem(bad)).toBe('Please enter a valid email address');
    }
    expect(forgotPasswordProblem(' ann@example.org ')).toBeNull();
  });
});

describe('category badge (spec section 9)', () => {
  it('derives the badge from the author', () => {
    expect(categoryFor('Jordan Avery', 'Jordan Avery')).toBe('Policy');
    expect(categoryFor('Press Office', 'Jordan Avery')).toBe('Campaign News');
    expect(categoryFor('Campaign Team', 'Jordan Avery')).toBe('Events');
    expect(categoryFor('Guest Writer', 'Jordan Avery')).toBe('News');
    expect(categoryFor('Jordan Avery Press Campaign', 'Jordan Avery')).toBe('Policy');
    expect(categoryFor('Anyone', '')).toBe('News');
  });
});

describe('volunteer retry outcome', () => {
  it('keeps on network failure and 5xx, drops on success, asks for captcha on a stale token', () => {
    expect(retryOutcome(null)).toBe('kept');
    expect(retryOutcome(503)).toBe('kept');
    expect(retryOutcome(201)).toBe('sent');
    expect(retryOutcome(400, 'Please complete the CAPTCHA')).toBe('needs-captcha');
    expect(retryOutcome(400, 'Validation failed')).toBe('rejected');
  });
});
