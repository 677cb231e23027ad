import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ArticleInputSchema } from '../../src/lib/schemas/article.ts';
import { EventInputSchema } from '../../src/lib/schemas/event.ts';
import { CONTROL_CHARACTERS_MESSAGE, toE164 } from '../../src/lib/schemas/fields.ts';
import {
  ContactMessageSchema,
  TextSignupSchema,
  VolunteerSignupSchema,
} from '../../src/lib/schemas/forms.ts';
import {
  MetricUpdateSchema,
  MilestoneUpdateSchema,
  VolunteerGoalUpdateSchema,
} from '../../src/lib/schemas/progress.ts';
import { SocialLinkUpdateSchema } from '../../src/lib/schemas/social.ts';
import { LoginSchema, UserCreateSchema, UserUpdateSchema } from '../../src/lib/schemas/user.ts';

/**
 * Control characters are refused in every text field, by the shared
 * field schemas (src/lib/schemas/fields.ts). For each input schema, every
 * string field of a valid sample gets a NUL, another C0 and a C1 character;
 * each must fail. Fields that allow several lines still take tab and newlines.
 * Exempt on purpose: passwords (used exactly as typed), opaque tokens and the
 * optimistic-concurrency stamp (compared, never stored or shown).
 */
const EXEMPT = new Set(['password', 'captcha', 'captchaResponse', 'expectedUpdatedAt', 'sourcePage']);
const MULTILINE = new Set(['message', 'description', 'notes', 'content', 'excerpt']);
const FORMATTED = new Set([
  'phone',
  'email',
  'username',
  'slug',
  'state',
  'subject',
  'eventDate',
  'startTime',
  'eventType',
  'deadline',
  'priority',
  'role',
  'url',
]);

const samples: [string, z.ZodType, Record<string, unknown>][] = [
  [
    'text sign-up',
    TextSignupSchema,
    { firstName: 'Ada', phone: '504-555-0100', email: 'a@b.co', smsConsent: true, captcha: 't' },
  ],
  [
    'volunteer',
    VolunteerSignupSchema,
    {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'g@h.co',
      phone: '504-555-0101',
      address1: '1 Canal St',
      address2: 'Apt 2',
      city: 'New Orleans',
      state: 'LA',
      interests: ['Phone banking'],
      captchaResponse: 't',
    },
  ],
  [
    'contact',
    ContactMessageSchema,
    { name: 'Alan', email: 'a@t.co', phone: '', subject: 'general', message: 'Hi', captcha: 't' },
  ],
  [
    'event',
    EventInputSchema,
    {
      title: 'Town Hall',
      description: 'Open',
      location: 'Gentilly',
      eventDate: '2099-01-01',
      startTime: '18:00',
      eventType: 'rally',
      notes: 'internal',
    },
  ],
  ['article', ArticleInputSchema, { title: 'T', slug: 's', content: '<p>x</p>', excerpt: 'e', author: 'A' }],
  ['social link', SocialLinkUpdateSchema, { url: '', handle: 'avery', isActive: true, displayOrder: 1 }],
  [
    'metric',
    MetricUpdateSchema,
    { currentValue: 1, targetValue: 2, label: 'L', sublabel: 'S', description: 'D', trend: 'up' },
  ],
  [
    'goal',
    VolunteerGoalUpdateSchema,
    { currentCount: 1, targetCount: 2, deadline: '2099-01-01', description: 'D', priority: 'low' },
  ],
  ['milestone', MilestoneUpdateSchema, { currentCount: 1, label: 'L', description: 'D' }],
  [
    'user create',
    UserCreateSchema,
    {
      username: 'sam',
      email: 's@x.co',
      password: 'secret1',
      role: 'viewer',
      firstName: 'Sam',
      lastName: 'Lee',
    },
  ],
  ['user update', UserUpdateSchema, { firstName: 'Sam', lastName: 'Lee' }],
  ['login', LoginSchema, { username: 'sam', password: 'secret1' }],
];

describe('control characters in text fields', () => {
  it.each(samples)('%s: the valid sample parses', (_name, schema, sample) => {
    expect(schema.safeParse(sample).success).toBe(true);
  });

  it.each(samples)('%s: NUL, C0 and C1 are refused in every text field', (_name, schema, sample) => {
    const fields = Object.entries(sample).filter(
      ([k, v]) => !EXEMPT.has(k) && (typeof v === 'string' || Array.isArray(v)),
    );
    expect(fields.length).toBeGreaterThan(0);
    for (const [field, value] of fields) {
      for (const bad of ['\u0000', '\u0007', '\u001b[2J', '\u0085', '\u009b']) {
        const poisoned = Array.isArray(value) ? [`${String(value[0])}${bad}x`] : `${String(value)}${bad}x`;
        const r = schema.safeParse({ ...sample, [field]: poisoned });
        // Slugs are rewritten (spec section 5): nothing outside a-z, 0-9 and '-' survives; anything else is refused.
        const slug = field === 'slug' && r.success ? (r.data as { slug: string }).slug : null;
        expect(
          slug === null ? r.success : /^[a-z0-9-]+$/.test(slug),
          `${field} accepted ${JSON.stringify(bad)}`,
        ).toBe(field === 'slug');
        // Free text says why; formatted fields (a date, a choice, a URL, a phone) refuse it as malformed.
        const messages = r.success ? [] : r.error.issues.map((i) => i.message);
        expect(
          field === 'slug' || FORMATTED.has(field) || messages.includes(CONTROL_CHARACTERS_MESSAGE),
          `${field}: ${messages.join('; ')}`,
        ).toBe(true);
      }
    }
  });

  it.each(samples)('%s: line breaks only where a field allows several lines', (_name, schema, sample) => {
    for (const [field, value] of Object.entries(sample)) {
      if (EXEMPT.has(field) || FORMATTED.has(field) || typeof value !== 'string') continue;
      const r = schema.safeParse({ ...sample, [field]: `${value}\nline two\tand a tab\r\n` });
      expect(r.success, `${field} with a newline`).toBe(MULTILINE.has(field));
    }
  });

  it('phone numbers with control characters are not numbers', () => {
    expect(toE164('504\u0000555\u00000100')).toBeNull();
    expect(toE164('504-555-0100')).toBe('+15045550100');
  });
});
