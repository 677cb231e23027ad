import { describe, expect, it } from 'vitest';
import { consentLabel, personHash, personIdOfHash, queueReason } from '../../src/admin/api/people.ts';

/* The People tab's pure parts (docs/decisions/149-people.md): the person link in the hash and the words it shows. */

describe('People tab helpers', () => {
  const id = 'a'.repeat(32);

  it("a person's page is #people/<32 hex>, and nothing else opens one", () => {
    expect(personIdOfHash(personHash(id))).toBe(id);
    for (const bad of [
      '#people',
      '#people/',
      `#people/${id}x`,
      `#people/${'g'.repeat(32)}`,
      `#inbox/${id}`,
      `people/${id}`,
    ])
      expect(personIdOfHash(bad)).toBeNull();
  });

  it('consent states and queue reasons read as plain words', () => {
    expect([consentLabel('granted'), consentLabel('revoked'), consentLabel('')]).toEqual([
      'Opted in',
      'Stopped',
      'No record',
    ]);
    expect(queueReason('same_email_different_details')).toBe('Same email, different name and phone');
    expect(queueReason('email_and_phone_of_two_people')).toBe(
      'The email belongs to one person and the phone to another',
    );
  });
});
