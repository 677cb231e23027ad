import type { Config } from '@netlify/functions';
import { EmailSubscriptionSchema } from '../../src/lib/schemas/forms.ts';
import { acceptPublicForm } from '../../src/lib/server/public-forms/accept.ts';
import { subscribeEmail, SUBSCRIBE_PENDING } from '../../src/lib/server/public-forms/subscribers.ts';
import { handle, json } from '../../src/lib/server/http.ts';

/**
 * POST /api/email-subscribers: the blog's newsletter box. The steps of every public form
 * (src/lib/server/public-forms/accept.ts), then the address is kept as pending and a confirmation link is emailed
 * (docs/decisions/167-email-and-newsletter.md). Every accepted post answers 202 with the same message, whether
 * the address was new, pending or already subscribed.
 */
export default handle(
  acceptPublicForm({
    id: 'newsletter',
    schema: EmailSubscriptionSchema,
    maxBytes: 4 * 1024,
    providers: { captcha: true, email: true },
    store: ({ input, meta }) => subscribeEmail(input, meta),
    answer: () =>
      json({ message: SUBSCRIBE_PENDING.heading, description: SUBSCRIBE_PENDING.text }, { status: 202 }),
  }),
);

export const config: Config = { path: '/api/email-subscribers' };
