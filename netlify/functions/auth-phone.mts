import type { Config, Context } from '@netlify/functions';
import {
  maskPhone,
  StaffPhoneCodeSchema,
  StaffPhoneVerifySchema,
} from '../../src/lib/schemas/staff-phone.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import {
  confirmPhoneCode,
  removeStaffPhone,
  sendPhoneCode,
  staffPhoneStatus,
} from '../../src/lib/server/broadcasts/staff-phone.ts';
import { getUser } from '../../src/lib/server/auth/users.ts';
import { allowMethods, handle, json, readJson } from '../../src/lib/server/http.ts';

/**
 * The signed-in member's own mobile phone, verified by a texted code: the one number a broadcast's test text goes to
 * (docs/decisions/152-broadcasts.md). Every staff role; each write is audited (the phone masked).
 * - GET    /api/auth/phone          own phone (masked), a code in flight, test sends left today
 * - POST   /api/auth/phone/code     {phone}: text a code to it
 * - POST   /api/auth/phone/verify   {code}: the code back; the number becomes the verified phone
 * - DELETE /api/auth/phone          forget the verified phone
 */
export default handle(async (req: Request, context: Context) => {
  const action = new URL(req.url).pathname.replace(/\/$/, '').split('/').pop();
  if (action === 'phone') {
    allowMethods(req, 'GET', 'DELETE');
    const user = await requireUser(req);
    if (req.method === 'DELETE') {
      const was = await removeStaffPhone(user);
      await audit(context, user, 'auth.phone_removed', null, { phone: maskPhone(was) });
    }
    return json(await staffPhoneStatus((await getUser(user.id)) ?? user));
  }
  allowMethods(req, 'POST');
  const user = await requireUser(req);
  if (action === 'code') {
    const { phone } = await readJson(req, StaffPhoneCodeSchema, 1024);
    const sent = await sendPhoneCode(user, phone);
    await audit(context, user, 'auth.phone_code_sent', null, { phone: sent.phone });
    return json(await staffPhoneStatus(user));
  }
  const { code } = await readJson(req, StaffPhoneVerifySchema, 1024);
  const verified = await confirmPhoneCode(user, code);
  await audit(context, verified.user, 'auth.phone_verified', null, {
    phone: maskPhone(verified.phone),
    ...(user.phone ? { replaced: maskPhone(user.phone) } : {}),
  });
  return json(await staffPhoneStatus(verified.user));
});

export const config: Config = {
  path: ['/api/auth/phone', '/api/auth/phone/code', '/api/auth/phone/verify'],
};
