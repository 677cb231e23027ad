import QRCode from 'qrcode';
import type { Lang } from '../../lang.ts';
import { env } from '../env.ts';
import { myData, type MyData } from './account.ts';
import { currentSupporter } from './session.ts';
import { myShifts, type MyShift } from './shifts.ts';
import { myLeaderboard } from './recruits.ts';

/**
 * What /my and /es/my render (docs/decisions/182-supporter-page.md): rendered on request, never cached
 * (`private, no-store`), the signed-in supporter's data or the sign-in form. `done` is a word from a fixed list
 * (never an echo of the address bar).
 */
export type MyPageData =
  | { state: 'signed-out'; done: string | null }
  | {
      state: 'signed-in';
      done: string | null;
      data: MyData;
      shifts: MyShift[];
      /** The top counts and the supporter's own place, when staff show them; null when off. */
      leaderboard: Awaited<ReturnType<typeof myLeaderboard>>;
      inviteUrl: string;
      qr: string;
    };

export async function loadMyPage(
  request: Request,
  response: ResponseInit & { headers: Headers },
  url: URL,
  lang: Lang,
): Promise<MyPageData> {
  response.headers.set('Cache-Control', 'private, no-store');
  response.headers.set('Netlify-CDN-Cache-Control', 'no-store');
  const done = url.searchParams.get('done');
  const p = await currentSupporter(request);
  if (!p) return { state: 'signed-out', done };
  const [data, shifts, leaderboard] = await Promise.all([myData(p), myShifts(p, lang), myLeaderboard(p.id)]);
  const inviteUrl = new URL(`/r/${data.invite.code}`, env().SITE_URL).toString();
  const svg = await QRCode.toString(inviteUrl, { type: 'svg', margin: 1 });
  return {
    state: 'signed-in',
    done,
    data,
    shifts,
    leaderboard,
    inviteUrl,
    qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
  };
}
