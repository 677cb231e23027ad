import type { Config } from '@netlify/functions';
import { handleUnsubscribe } from '../../src/lib/server/broadcasts/unsubscribe.ts';
import { allowMethods, handle } from '../../src/lib/server/http.ts';

/** POST /api/unsubscribe: a bulk email's unsubscribe (the page's button, or RFC 8058 one-click). */
export default handle(async (req: Request) => {
  allowMethods(req, 'POST');
  return handleUnsubscribe(req);
});

export const config: Config = { path: '/api/unsubscribe' };
