import type { Config } from '@netlify/functions';
import { VolunteerSignupSchema } from '../../src/lib/schemas/forms.ts';
import { acceptPublicForm } from '../../src/lib/server/public-forms/accept.ts';
import { saveVolunteer } from '../../src/lib/server/public-forms/submissions.ts';
import { handle, json } from '../../src/lib/server/http.ts';

/**
 * POST /api/volunteers-sendgrid: the steps of every public form (src/lib/server/public-forms/accept.ts; closed, 410,
 * once the campaign has ended), then store and email the campaign (201 new, 200 identical repeat).
 */
export default handle(
  acceptPublicForm({
    id: 'volunteer',
    schema: VolunteerSignupSchema,
    maxBytes: 16 * 1024,
    providers: { captcha: true, email: true },
    closes: 'volunteer',
    store: ({ input, meta }) => saveVolunteer(input, meta),
    answer: ({ created }) => json({ success: true }, { status: created ? 201 : 200 }),
  }),
);

export const config: Config = { path: '/api/volunteers-sendgrid' };
