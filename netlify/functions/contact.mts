import type { Config } from '@netlify/functions';
import { ContactMessageSchema } from '../../src/lib/schemas/forms.ts';
import { acceptPublicForm } from '../../src/lib/server/public-forms/accept.ts';
import { saveContact } from '../../src/lib/server/public-forms/submissions.ts';
import { handle, json } from '../../src/lib/server/http.ts';

/** POST /api/contact: the steps of every public form (src/lib/server/public-forms/accept.ts), then store and email the campaign inbox. */
export default handle(
  acceptPublicForm({
    id: 'contact',
    schema: ContactMessageSchema,
    maxBytes: 32 * 1024,
    providers: { captcha: true, email: true },
    store: ({ input, meta }) => saveContact(input, meta),
    answer: () => json({ success: true }, { status: 201 }),
  }),
);

export const config: Config = { path: '/api/contact' };
