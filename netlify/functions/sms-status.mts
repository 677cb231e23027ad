import type { Config } from '@netlify/functions';
import { handleTwilioStatus } from '../../src/lib/server/broadcasts/feedback.ts';
import { allowMethods, handle, json } from '../../src/lib/server/http.ts';

/** POST /api/sms/status: Twilio's status callback for broadcast texts (signature checked first). */
export default handle(async (req: Request) => {
  allowMethods(req, 'POST');
  return json(await handleTwilioStatus(req));
});

export const config: Config = { path: '/api/sms/status' };
