/**
 * What the browser needs to know about the public forms, with no zod: the
 * enum lists, limits and messages the islands show (the zod schemas in
 * forms.ts are built from the same constants, so both sides give the same
 * answers), and the one table of public forms: each form's endpoint, its field
 * names and how an HTML form's fields become the JSON body the endpoint's
 * schema parses.
 *
 * That conversion (`formFieldsToInput`) is shared on purpose: the hydrated
 * island turns its <form>'s FormData into the JSON it sends, and the endpoint
 * turns a browser form post (no JavaScript, or submitted before the island
 * hydrated) into the same object, so the two paths can never disagree.
 * Like category.ts, this module imports nothing.
 */

/** Volunteer form states (spec section 3). */
export const STATES = ['LA', 'AL', 'AR', 'FL', 'GA', 'MS', 'TX', 'Other'] as const;
export type VolunteerState = (typeof STATES)[number];

/** Contact form subjects (spec section 3); their labels are copy (src/content/contact.ts). */
export const CONTACT_SUBJECTS = [
  'general',
  'volunteer',
  'press',
  'endorsement',
  'event',
  'policy',
  'donation',
  'interview',
] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number];

/** Spec section 5. */
export const CAPTCHA_REQUIRED = 'Please complete the CAPTCHA';

/** Spec section 5 messages for the text-message sign-up (title / description pairs). */
export const TEXT_SIGNUP_MESSAGES = {
  firstName: { title: 'First name required', description: 'Please enter your first name.' },
  consent: {
    title: 'SMS consent required',
    description: 'Please check the box to consent to receiving text messages.',
  },
} as const;

/**
 * The newsletter box's double opt-in (docs/decisions/167-email-and-newsletter.md):
 * how long a confirmation link works, and how many emails the box may cause to
 * one address in that many days (the first one included), so a stranger's
 * address cannot be mail-bombed through it.
 */
export const NEWSLETTER_CONFIRM = { days: 7, maxEmails: 3 } as const;

/** A newsletter confirmation link's token: 256 random bits, base64url. */
export const NEWSLETTER_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * A text sign-up with neither a phone nor an email: nobody could ever reach that person, and texts need a
 * phone. Not a spec message: the server's answer, on the phone field (docs/decisions/151-texting.md).
 */
export const TEXT_SIGNUP_PHONE_NEEDED = 'Text messages need a phone number: please enter your mobile number.';

/** Length caps of the public form fields (the schemas enforce them; inputs carry them as maxLength). */
export const FIELD_MAX = {
  firstName: 80,
  lastName: 80,
  name: 120,
  email: 254,
  phone: 32,
  address: 200,
  city: 100,
  /** 5 digits, or ZIP+4 (docs/decisions/159-public-forms.md). */
  zip: 10,
  message: 5000,
} as const;

/** The messages of the volunteer and contact fields (server and browser alike). */
export const FIELD_MESSAGES = {
  firstName: 'First name is required',
  lastName: 'Last name is required',
  name: 'Full name is required',
  email: 'Please enter a valid email address',
  phone: 'Please enter a valid phone number',
  address: 'Address is required',
  city: 'City is required',
  state: 'Please choose a state',
  zip: 'Please enter a valid ZIP code',
  subject: 'Please choose a subject',
  message: 'Message is required',
} as const;

/**
 * A name with invisible format or control characters (bidi overrides, zero-width, byte-order mark): refused on
 * every public form that takes a name (docs/decisions/075-names-are-not-a-channel.md). Its translations:
 * `formUi.nameCharacters` (src/content/ui.ts) and the plan form's `errors.nameCharacters` (src/content/vote.ts).
 */
export const NAME_CHARACTERS_MESSAGE =
  'Please type the name without invisible formatting characters (such as text-direction or zero-width marks)';

/**
 * Turnstile's own hidden field. The widget adds it to the <form> it sits in,
 * so it arrives with a form post; it is read as the form's captcha field.
 */
export const TURNSTILE_FIELD = 'cf-turnstile-response';

export interface PublicForm {
  /** POST endpoint (the form's `action`); `:name` segments stand for one path segment (an event id). */
  endpoint: string;
  /** Where the form lives, for the outcome pages' way back. */
  page: string;
  /** For an endpoint with `:name` segments: the page the form lives on, from the endpoint path that was posted to. */
  pageOf?: (endpointPath: string) => string;
  /** Checkboxes that stand for one boolean: present means true. */
  booleans?: readonly string[];
  /** Fields that may repeat (checkbox groups): always an array. */
  arrays?: readonly string[];
  /** The schema's captcha field, filled from Turnstile's own field when the form post carries that. */
  captchaField?: string;
  /** Fields the browser sends that the endpoint does not take (a confirmation box). */
  clientOnly?: readonly string[];
  /**
   * Fields an outcome page may put back into the form after a refused post.
   * Never a captcha token or a password.
   */
  refill: readonly string[];
  /**
   * Success outcomes besides the default `sent`: a JSON answer whose `status`
   * names one of these is shown by that outcome's page (copy in src/content/forms.ts).
   */
  outcomes?: readonly string[];
  /**
   * A success answers with its own page: the JSON answer's `next` (a site path) is where the browser form post
   * goes, and where the island sends the browser (a plan to vote's own page: docs/decisions/158-plan-to-vote.md).
   */
  nextFromAnswer?: boolean;
}

/**
 * The public forms. To add one (an event RSVP, say): an entry here, its copy in
 * src/content/forms.ts, its island rendering in src/pages/forms/[form]/index.astro,
 * and its endpoint declared with `acceptPublicForm` (src/lib/server/public-forms/accept.ts), or reading the
 * body with `readInput` for a button that stores nothing a visitor typed
 * (docs/decisions/159-public-forms.md).
 */
export const PUBLIC_FORMS = {
  'text-signup': {
    endpoint: '/api/newsletter',
    page: '/#text-signup-form',
    booleans: ['smsConsent'],
    // The bot check (docs/decisions/151-texting.md). A post without JavaScript has no token: held to the no-script budget.
    captchaField: 'captcha',
    refill: ['firstName', 'phone', 'email', 'smsConsent', 'sourcePage', 'lang'],
    // A number that texted STOP is answered `{ status: 'opted_out' }` (docs/decisions/151-texting.md): its own page.
    outcomes: ['opted_out'],
  },
  volunteer: {
    endpoint: '/api/volunteers-sendgrid',
    page: '/volunteer#volunteer-form',
    arrays: ['interests'],
    captchaField: 'captchaResponse',
    refill: [
      'firstName',
      'lastName',
      'email',
      'phone',
      'address1',
      'address2',
      'city',
      'state',
      'zip',
      'interests',
      'lang',
    ],
  },
  contact: {
    endpoint: '/api/contact',
    page: '/contact#contact-form',
    captchaField: 'captcha',
    refill: ['name', 'email', 'phone', 'subject', 'message', 'lang'],
  },
  newsletter: {
    endpoint: '/api/email-subscribers',
    page: '/blog#newsletter-form',
    // The bot check (docs/decisions/167-email-and-newsletter.md), as on the contact form.
    captchaField: 'captcha',
    refill: ['email', 'sourcePage', 'lang'],
  },
  // The Confirm button of the page the newsletter's confirmation link opens.
  'newsletter-confirm': {
    endpoint: '/api/email-subscribers/confirm',
    page: '/blog#newsletter-form',
    refill: [],
    // A second use of a link (or of another link to the same address) is answered kindly, on its own page.
    outcomes: ['already_confirmed'],
  },
  // The RSVP form of an event page and the cancellation link's button.
  rsvp: {
    endpoint: '/api/events/:id/rsvp',
    page: '/blog#events',
    pageOf: (path) => path.replace(/^\/api\/events\/(\d+)\/rsvp$/, '/events/$1#rsvp-heading'),
    booleans: ['smsReminder'],
    arrays: ['slots'],
    captchaField: 'captchaResponse',
    refill: [],
    // `{ status: 'waitlisted' }` (the event is full) has its own page; `going` is the default `sent`.
    outcomes: ['waitlisted'],
  },
  // Make a plan to vote (/vote): a success goes to the plan's own page (docs/decisions/158-plan-to-vote.md).
  'vote-plan': {
    endpoint: '/api/vote-plan',
    page: '/vote#plan-heading',
    booleans: ['smsConsent', 'emailConsent'],
    captchaField: 'captcha',
    // A refused post without JavaScript gets the form again, filled in, with each field's error.
    refill: [
      'day',
      'method',
      'timeOfDay',
      'bringing',
      'name',
      'phone',
      'email',
      'smsConsent',
      'emailConsent',
      'lang',
    ],
    nextFromAnswer: true,
  },
  // The plan page's buttons ("I voted", "Stop my reminders", "Resume my reminders") and its "Change my plan" form,
  // which goes back to the plan's page.
  'vote-plan-update': {
    endpoint: '/api/vote-plan/update',
    page: '/vote#plan-heading',
    refill: [],
    outcomes: ['voted', 'stopped', 'resumed'],
    nextFromAnswer: true,
  },
  'rsvp-cancel': {
    endpoint: '/api/rsvp/cancel',
    page: '/blog#events',
    refill: [],
  },
  'forgot-password': {
    endpoint: '/api/auth/forgot-password',
    page: '/forgot-password',
    refill: ['email'],
  },
  'reset-password': {
    endpoint: '/api/auth/reset-password',
    page: '/forgot-password',
    clientOnly: ['confirmPassword'],
    refill: [],
  },
} as const satisfies Record<string, PublicForm>;

export type PublicFormId = keyof typeof PUBLIC_FORMS;
export const PUBLIC_FORM_IDS = Object.keys(PUBLIC_FORMS) as PublicFormId[];

export function isPublicFormId(value: string): value is PublicFormId {
  return Object.hasOwn(PUBLIC_FORMS, value);
}

const endpointRegex = (endpoint: string) =>
  new RegExp(`^${endpoint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-z]+/gi, '[^/]+')}$`);

/** The form whose endpoint is this path, if any. */
export function publicFormAt(pathname: string): PublicFormId | null {
  const path = pathname.replace(/\/+$/, '');
  return PUBLIC_FORM_IDS.find((id) => endpointRegex(PUBLIC_FORMS[id].endpoint).test(path)) ?? null;
}

/**
 * The path a form posts to, its `:name` segments filled from `params` (an RSVP's event id): what an island sends
 * its fetch to, from the one table above.
 */
export function formEndpoint(
  id: PublicFormId,
  params: Readonly<Record<string, string | number>> = {},
): string {
  return PUBLIC_FORMS[id].endpoint.replace(/:([a-z]+)/gi, (_, name: string) =>
    encodeURIComponent(String(params[name])),
  );
}

/** Where the person goes back to fill the form in again after a refused post to `endpointPath`. */
export function formPageFor(id: PublicFormId, endpointPath: string): string {
  const form: PublicForm = PUBLIC_FORMS[id];
  const page = form.pageOf?.(endpointPath.replace(/\/+$/, ''));
  return page && page.startsWith('/') && !page.startsWith('/api/') ? page : form.page;
}

/** Outcomes of a form that have a page: `sent` plus the form's own. */
export function outcomesOf(id: PublicFormId): string[] {
  const form: PublicForm = PUBLIC_FORMS[id];
  return ['sent', ...(form.outcomes ?? [])];
}

export type FormInput = Record<string, string | boolean | string[]>;

/**
 * An HTML form's fields (FormData or URLSearchParams entries) as the JSON body
 * of its endpoint: checkboxes in `booleans` become true/false, `arrays` are
 * always arrays, Turnstile's field fills the captcha field, client-only fields
 * are dropped; any other field is kept as sent (the strict schema refuses an
 * unknown one, as it does in JSON).
 */
export function formFieldsToInput(id: PublicFormId, entries: Iterable<[string, unknown]>): FormInput {
  const form: PublicForm = PUBLIC_FORMS[id];
  const out: FormInput = {};
  let turnstile = '';
  for (const [name, raw] of entries) {
    if (typeof raw !== 'string') continue; // a file in a text form: ignored
    if (form.clientOnly?.includes(name)) continue;
    if (name === TURNSTILE_FIELD && form.captchaField) {
      turnstile ||= raw;
      continue;
    }
    if (form.booleans?.includes(name)) out[name] = raw !== '' && raw !== 'false';
    else if (form.arrays?.includes(name)) out[name] = [...((out[name] as string[] | undefined) ?? []), raw];
    else if (!(name in out)) out[name] = raw;
  }
  for (const name of form.booleans ?? []) out[name] ??= false;
  for (const name of form.arrays ?? []) out[name] ??= [];
  if (form.captchaField && !out[form.captchaField] && turnstile) out[form.captchaField] = turnstile;
  return out;
}

/** The values an outcome page may show back in the form (strings, booleans and string lists only). */
export function refillValues(id: PublicFormId, input: FormInput): FormInput {
  const out: FormInput = {};
  for (const name of PUBLIC_FORMS[id].refill as readonly string[]) {
    const v = input[name];
    if (typeof v === 'string') out[name] = v.slice(0, 10_000);
    else if (typeof v === 'boolean') out[name] = v;
    else if (Array.isArray(v)) out[name] = v.filter((x) => typeof x === 'string').slice(0, 20);
  }
  return out;
}
