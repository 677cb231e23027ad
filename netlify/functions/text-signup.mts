import type { Config } from '@netlify/functions';
import { TextSignupSchema } from '../../src/lib/schemas/forms.ts';
import { acceptPublicForm } from '../../src/lib/server/public-forms/accept.ts';
import {
  signUpForTexts,
  TEXT_SIGNUP_OK,
  TEXT_SIGNUP_OPTED_OUT,
  textSignupLimits,
} from '../../src/lib/server/texting/text-signups.ts';
import { handle, json } from '../../src/lib/server/http.ts';

/**
 * POST /api/newsletter: the text-message sign-up, through the steps of every public form
 * (src/lib/server/public-forms/accept.ts) with its own limits (docs/decisions/151-texting.md).
 * 201 new, 200 repeat (same message); 200 with `status: 'opted_out'` and the START instructions for a
 * number that replied STOP; 429 with Retry-After past a limit; 410 once the campaign has ended
 * (docs/decisions/157-election-calendar.md).
 */
export default handle(
  acceptPublicForm({
    id: 'text-signup',
    schema: TextSignupSchema,
    maxBytes: 8 * 1024,
    providers: { sms: true, captcha: true },
    closes: 'text-signup',
    ownLimits: ({ input, meta }) => textSignupLimits(input, meta),
    noScriptBudget: true,
    store: ({ input, meta }) => signUpForTexts(input, meta),
    answer: (result) =>
      result.outcome === 'opted_out'
        ? json({ message: TEXT_SIGNUP_OPTED_OUT, status: 'opted_out' })
        : json({ message: TEXT_SIGNUP_OK, status: 'subscribed' }, { status: result.created ? 201 : 200 }),
  }),
);

export const config: Config = { path: '/api/newsletter' };
