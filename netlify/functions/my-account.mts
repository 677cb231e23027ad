import type { Config, Context } from '@netlify/functions';
import { isLang, type Lang } from '../../src/lib/lang.ts';
import { HttpError } from '../../src/lib/server/errors.ts';
import {
  allowMethods,
  clientIp,
  handle,
  json,
  requireSameOrigin,
  respond,
  withHeaders,
} from '../../src/lib/server/http.ts';
import { SUPPORTER_COPY } from '../../src/content/supporter-page.ts';
import {
  cancelMyRsvp,
  forgetMe,
  myData,
  resumeTexts,
  stopChannel,
  stopMyPlanReminders,
} from '../../src/lib/server/supporters/account.ts';
import { inviteCodeOf, revokeInvite } from '../../src/lib/server/supporters/invites.ts';
import { checked, myPage, readMyInput } from '../../src/lib/server/supporters/request.ts';
import { cancelMyShift, switchMyShift } from '../../src/lib/server/supporters/shifts.ts';
import { slotId } from '../../src/lib/schemas/shifts.ts';
import {
  clearSupporterCookies,
  currentSupporter,
  supporterCookies,
} from '../../src/lib/server/supporters/session.ts';
import { redeemSigninToken } from '../../src/lib/server/supporters/signin.ts';
import { codePhone, redeemTextCode } from '../../src/lib/server/supporters/text-code.ts';

/**
 * A supporter's own page's actions (docs/decisions/182-supporter-page.md), under /api/my (every function lives
 * under /api/; the supporter cookie is scoped to /my, /es/my and /api/my): `session` redeems a sign-in link (a
 * POST: a link scanner's GET changes nothing), `code-session` a code sent by text, `data` is the download, and
 * the rest act on the session's person only.
 */
const ACTIONS = [
  'session',
  'code-session',
  'data',
  'cancel-rsvp',
  'cancel-shift',
  'switch-shift',
  'stop-plan-reminders',
  'stop',
  'resume-texts',
  'revoke-invite',
  'forget',
  'sign-out',
] as const;
type Action = (typeof ACTIONS)[number];

/** The page's language: the form's `lang` field, or the address's `?lang=` (the download link). */
const langOf = (req: Request, input: Record<string, unknown>): Lang => {
  const q = new URL(req.url).searchParams.get('lang');
  return isLang(input.lang) ? input.lang : isLang(q) ? q : 'en';
};

export default handle(async (req: Request, context: Context) => {
  const action = context.params?.action as Action;
  if (!(ACTIONS as readonly string[]).includes(action)) throw new HttpError(404, 'Not found');

  if (action === 'data') {
    allowMethods(req, 'GET');
    const p = await currentSupporter(req);
    if (!p) throw new HttpError(401, SUPPORTER_COPY[langOf(req, {})].signInFirst);
    const data = await myData(p);
    return respond(JSON.stringify(data, null, 2), {
      type: 'application/json; charset=utf-8',
      cache: 'private, no-store',
      headers: { 'Content-Disposition': 'attachment; filename="my-campaign-data.json"' },
    });
  }

  allowMethods(req, 'POST');
  requireSameOrigin(req);
  const { input, formPost } = await readMyInput(req, 8 * 1024);
  const lang = langOf(req, input);
  const done = (word: string, body: Record<string, unknown>, cookies: string[] = []) =>
    withHeaders(formPost ? myPage(lang, word) : json({ success: true, ...body }), { 'Set-Cookie': cookies });

  if (action === 'session') {
    const personId = typeof input.token === 'string' ? await redeemSigninToken(input.token) : null;
    if (!personId) throw new HttpError(400, SUPPORTER_COPY[lang].invalidLink);
    return done('signed-in', {}, await supporterCookies(personId));
  }
  if (action === 'code-session') {
    const phone = codePhone(input.phone, lang);
    const code = typeof input.code === 'string' ? input.code.trim() : '';
    const personId = await redeemTextCode(phone, code, clientIp(context));
    if (!personId) throw new HttpError(400, SUPPORTER_COPY[lang].invalidCode);
    return done('signed-in', {}, await supporterCookies(personId));
  }
  if (action === 'sign-out') return done('signed-out', {}, clearSupporterCookies());

  const p = await currentSupporter(req);
  if (!p) throw new HttpError(401, SUPPORTER_COPY[lang].signInFirst);
  switch (action) {
    case 'cancel-rsvp': {
      const eventId = Number(input.event);
      const rsvpId = String(input.rsvp ?? '');
      if (!Number.isSafeInteger(eventId) || !/^[a-f0-9]{64}$/.test(rsvpId))
        throw new HttpError(400, 'Which RSVP?');
      await cancelMyRsvp(p, eventId, rsvpId);
      return done('rsvp-cancelled', {});
    }
    case 'cancel-shift': {
      const eventId = Number(input.event);
      const slot = slotId.safeParse(input.slot);
      if (!Number.isSafeInteger(eventId) || !slot.success) throw new HttpError(400, 'Which shift?');
      await cancelMyShift(p, eventId, slot.data);
      return done('shift-cancelled', {});
    }
    case 'switch-shift': {
      const eventId = Number(input.event);
      const from = slotId.safeParse(input.slot);
      const to = slotId.safeParse(input.to);
      if (!Number.isSafeInteger(eventId) || !from.success || !to.success)
        throw new HttpError(400, 'Which shift, and to which slot?');
      const meta = { ip: clientIp(context), userAgent: req.headers.get('user-agent'), formPost };
      const move = { eventId, from: from.data, to: to.data, waitlist: checked(input.waitlist) };
      const r = await switchMyShift(p, move, meta, lang);
      return done(r.kept ? 'shift-waitlisted' : 'shift-switched', { ...r });
    }
    case 'stop-plan-reminders':
      return done('plan-stopped', { plans: await stopMyPlanReminders(p) });
    case 'stop': {
      const channel = input.channel;
      if (channel !== 'email' && channel !== 'text')
        throw new HttpError(400, 'Which channel: email or text?');
      await stopChannel(p, channel);
      return done(`${channel}-stopped`, {});
    }
    case 'resume-texts':
      await resumeTexts(p, checked(input.consent), lang);
      return done('texts-resumed', {});
    case 'revoke-invite': {
      await revokeInvite(await inviteCodeOf(p.id), 'owner');
      return done('invite-revoked', { code: await inviteCodeOf(p.id) });
    }
    case 'forget': {
      const report = await forgetMe(p, checked(input.confirm), lang);
      return done('forgotten', { removed: report.removed }, clearSupporterCookies());
    }
  }
});

export const config: Config = { path: '/api/my/:action', excludedPath: ['/api/my/link', '/api/my/code'] };
