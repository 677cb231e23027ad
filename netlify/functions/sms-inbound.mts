import type { Config } from '@netlify/functions';
import { handleInboundWebhook } from '../../src/lib/server/texting/sms-webhook.ts';
// Registers the answer to a shift's day-before question (1 / SÍ, 2 / NO) with the webhook.
import '../../src/lib/server/events/shift-answers.ts';
import { allowMethods, handle } from '../../src/lib/server/http.ts';

/** POST /api/sms/inbound: Twilio's inbound-message webhook (signature checked first). */
export default handle(async (req: Request) => {
  allowMethods(req, 'POST');
  return handleInboundWebhook(req);
});

export const config: Config = { path: '/api/sms/inbound' };
