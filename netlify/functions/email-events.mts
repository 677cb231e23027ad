import type { Config } from '@netlify/functions';
import { handleSendGridEvents } from '../../src/lib/server/broadcasts/feedback.ts';
import { allowMethods, handle, json } from '../../src/lib/server/http.ts';

/** POST /api/email/events: SendGrid's Event Webhook (ECDSA signature and timestamp checked first). */
export default handle(async (req: Request) => {
  allowMethods(req, 'POST');
  return json(await handleSendGridEvents(req));
});

export const config: Config = { path: '/api/email/events' };
