import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnv } from '../../src/lib/server/env.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { lookupHash, nameKey, normalEmail, normalPhone } from '../../src/lib/server/people/keys.ts';
import { ambiguous } from '../../src/lib/server/people/link.ts';
import type { Person } from '../../src/lib/server/people/person.ts';

/* The matching rules of docs/decisions/149-people.md, case by case. */

const previous = { APP_ENV: process.env.APP_ENV, SESSION_SECRET: process.env.SESSION_SECRET };
beforeAll(() => {
  process.env.APP_ENV = 'test';
  process.env.SESSION_SECRET = 'people-match-test-secret-0123456789abcdef';
  resetEnv();
});
afterAll(() => {
  for (const [k, v] of Object.entries(previous))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  resetEnv();
});

const maria: Person = {
  id: 'a'.repeat(32),
  names: ['María López'],
  emails: ['maria@example.org'],
  phones: ['+15045550142'],
  zip: null,
  city: null,
  lang: 'en',
  sources: ['volunteer'],
  own: {},
  consent: {},
  mergedInto: null,
  merged: [],
  createdAt: '2026-10-01T12:00:00.000Z',
  updatedAt: '2026-10-01T12:00:00.000Z',
  rev: 1,
};

describe('matching rules', () => {
  it('normalises an email (trim, case, NFC) but never folds dots or +tags', () => {
    expect(normalEmail('  Maria@Example.ORG ')).toBe('maria@example.org');
    expect(normalEmail('m.aria+x@example.org')).toBe('m.aria+x@example.org');
    expect(normalEmail('jose\u0301@example.org')).toBe('jos\u00e9@example.org');
    expect(normalEmail('  ')).toBeNull();
  });

  it('takes only an E.164 phone', () => {
    expect(normalPhone('+15045550142')).toBe('+15045550142');
    expect(normalPhone('504-555-0142')).toBeNull();
  });

  it('compares names without case, accents or extra spaces', () => {
    expect(nameKey('  MARIA   lopez ')).toBe(nameKey('María López'));
  });

  it('a keyed hash per kind: an email never looks up a phone, and the key is not a plain sha256', () => {
    expect(lookupHash('email', 'x')).not.toBe(lookupHash('phone', 'x'));
    expect(lookupHash('email', 'maria@example.org')).toMatch(/^[a-f0-9]{64}$/);
    expect(lookupHash('email', 'maria@example.org')).not.toBe(hashed('maria@example.org'));
    expect(lookupHash('email', 'maria@example.org')).not.toBe(hashed('email:maria@example.org'));
  });

  it.each([
    [
      'same email, same phone',
      'email',
      { email: 'maria@example.org', phone: '+15045550142', name: 'X' },
      false,
    ],
    [
      'same email, new phone, same name',
      'email',
      { email: 'maria@example.org', phone: '+15045550199', name: 'maria lopez' },
      false,
    ],
    ['same email, no phone', 'email', { email: 'maria@example.org', phone: null, name: 'Someone' }, false],
    [
      'same email, different phone AND name',
      'email',
      { email: 'maria@example.org', phone: '+15045550199', name: 'Bea Stone' },
      true,
    ],
    [
      'same email, different phone, no name',
      'email',
      { email: 'maria@example.org', phone: '+15045550199', name: null },
      true,
    ],
    [
      'same phone, different email AND name',
      'phone',
      { email: 'bea@example.org', phone: '+15045550142', name: 'Bea Stone' },
      true,
    ],
    [
      'same phone, different email, same name',
      'phone',
      { email: 'm2@example.org', phone: '+15045550142', name: 'María López' },
      false,
    ],
  ] as const)('%s: ambiguous %s', (_label, via, n, expected) => {
    expect(ambiguous(maria, via, { ...n })).toBe(expected);
  });
});
