import { expect } from 'vitest';
import * as myAccount from '../../netlify/functions/my-account.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import { lookupKey } from '../../src/lib/server/people/keys.ts';
import { getPerson } from '../../src/lib/server/people/person.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { supporterCookies } from '../../src/lib/server/supporters/session.ts';
import { uniqueIp, validVolunteer } from './forms.ts';
import { call } from './http.ts';

let seq = 0;
/**
 * A volunteer (a person) signed in on their supporter page (docs/decisions/182-supporter-page.md): the session is
 * issued directly, for files about what a supporter does once signed in (the sign-in itself:
 * tests/api/supporter-page.test.ts). `key` is their entry's id on a roster; `person` reads their record now.
 */
export async function supporterWithSession(first: string, last: string) {
  seq += 1;
  const email = `${first.toLowerCase()}.${last.toLowerCase()}${seq}-${Date.now()}@example.org`;
  const res = await call(volunteersFn, '/api/volunteers-sendgrid', {
    json: validVolunteer({ firstName: first, lastName: last, email, phone: `504-553-${String(1000 + seq)}` }),
    ip: uniqueIp(),
  });
  expect(res.status).toBe(201);
  const id = (await kv('people').get<{ id: string }>(lookupKey('email', email)))!.value.id;
  const cookie = (await supporterCookies(id))[0]!.split(';')[0]!;
  return { email, id, cookie, key: hashed(email), person: async () => (await getPerson(id))!.value };
}

/** A POST to the supporter page's API, `/api/my/<action>`, with the session cookie when there is one. */
export const my = (action: string, json: unknown, cookie?: string) =>
  call(myAccount, `/api/my/${action}`, { method: 'POST', json, ...(cookie ? { cookie } : {}) });
