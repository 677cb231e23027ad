import { mapLimit } from '../storage/map-limit.ts';
import { people } from '../people/person.ts';
import { forgetInvites } from './invites.ts';
import { SIGNIN_PREFIX } from './signin.ts';

/**
 * What a supporter's own page keeps about a person, removed by every "forget me" (staff's and the supporter's
 * own, docs/decisions/182-supporter-page.md): their invite codes, the credits to them, and open sign-in links.
 * Answers how many blobs went.
 */
export async function forgetSupporter(personId: string): Promise<number> {
  let n = await forgetInvites(personId);
  const links: string[] = [];
  for await (const page of people().keys(SIGNIN_PREFIX)) links.push(...page);
  const gone = await mapLimit(links, 16, async (k) => {
    const r = await people().get<{ personId?: string }>(k);
    if (r?.value.personId !== personId) return 0;
    await people().delete(k);
    return 1;
  });
  n += gone.reduce<number>((a, b) => a + b, 0);
  return n;
}
