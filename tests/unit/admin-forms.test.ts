import { describe, expect, it } from 'vitest';
import { ArticleInputSchema } from '../../src/lib/schemas/article.ts';
import { EventInputSchema } from '../../src/lib/schemas/event.ts';
import { DEFAULT_EVENTS_EMAIL } from '../../src/content/identity.ts';
import { UserUpdateSchema, UserCreateSchema } from '../../src/lib/schemas/user.ts';
import { SocialLinkUpdateSchema } from '../../src/lib/schemas/social.ts';
import {
  MetricUpdateSchema,
  MilestoneUpdateSchema,
  VolunteerGoalUpdateSchema,
} from '../../src/lib/schemas/progress.ts';
import {
  articlePayload,
  hasRequiredArticleFields,
  missingArticleFields,
  newArticleForm,
  normaliseSlug,
  REQUIRED_ARTICLE_FIELDS,
  suggestSlug,
} from '../../src/admin/forms/article-form.ts';
import {
  eventForm,
  eventPayload,
  maxAttendeesValue,
  newEventForm,
} from '../../src/admin/forms/event-form.ts';
import {
  articleTranslationForm,
  articleTranslationPayload,
  hasRequiredTranslationFields,
  translationEdited,
} from '../../src/admin/forms/article-translation-form.ts';
import { ArticleSchema, articleSourceHash } from '../../src/lib/schemas/article.ts';
import { EventSchema, eventSourceHash } from '../../src/lib/schemas/event.ts';
import { createUserPayload, newUserForm, updateUserPayload } from '../../src/admin/forms/user-form.ts';
import { displayOrderValue, socialPayload } from '../../src/admin/forms/social-form.ts';
import { goalPayload, int0, metricPayload, milestonePayload } from '../../src/admin/forms/progress-form.ts';
import { fromLocalInput, toLocalInput } from '../../src/admin/forms/datetime.ts';
import { formatTime } from '../../src/lib/campaign-time.ts';
import { IDENTITY } from '../../src/content/identity.ts';

describe('article form', () => {
  it('a new article is id 0 with the candidate as author, unpublished', () => {
    const f = newArticleForm();
    expect(f.id).toBe(0);
    expect(f.author).toBe(IDENTITY.candidateName);
    expect(f.isPublished).toBe(false);
  });

  it('normalises the slug as typed: lowercase, anything outside a-z0-9- becomes a hyphen', () => {
    expect(normaliseSlug('Hello World!')).toBe('hello-world-');
    expect(normaliseSlug('Ça va 2025')).toBe('-a-va-2025');
    expect(normaliseSlug('already-ok-1')).toBe('already-ok-1');
  });

  it('requires title, slug, content and author', () => {
    const base = { title: 'T', slug: 's', content: '<p>x</p>', author: 'A' };
    expect(hasRequiredArticleFields(base)).toBe(true);
    for (const k of ['title', 'slug', 'content', 'author'] as const) {
      expect(hasRequiredArticleFields({ ...base, [k]: '   ' })).toBe(false);
    }
  });

  it('suggests a clean slug from the title: the spec rule, accents off, no doubled, leading or trailing hyphens', () => {
    expect(suggestSlug('Our Budget Plan!')).toBe('our-budget-plan');
    expect(suggestSlug('  ¿Año Nuevo 2027 -- en Nueva Orleans?  ')).toBe('ano-nuevo-2027-en-nueva-orleans');
    expect(suggestSlug('Ça va: "Q&A" with the candidate')).toBe('ca-va-q-a-with-the-candidate');
    expect(suggestSlug('!!!')).toBe('');
    const long = suggestSlug('word '.repeat(40));
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long).toMatch(/^word(-word)*$/);
    for (const title of ['A -- B', '--x--', 'Hello   World', 'é']) {
      const slug = suggestSlug(title);
      expect(slug).not.toMatch(/--|^-|-$/);
      expect(normaliseSlug(slug)).toBe(slug);
      expect(ArticleInputSchema.shape.slug.parse(slug)).toBe(slug);
    }
  });

  it('names each empty required field', () => {
    const base = { title: 'T', slug: 's', content: '<p>x</p>', author: 'A' };
    expect(missingArticleFields(base)).toEqual({});
    expect(missingArticleFields({ ...base, slug: '  ' })).toEqual({ slug: REQUIRED_ARTICLE_FIELDS.slug });
    expect(Object.keys(missingArticleFields({ title: '', slug: '', content: '', author: '' }))).toEqual([
      'title',
      'slug',
      'content',
      'author',
    ]);
  });

  it('builds a payload the shared schema accepts; update carries expectedUpdatedAt', () => {
    const f = {
      ...newArticleForm(),
      title: ' Title ',
      slug: 'My Post',
      content: '<p>Hi</p>',
      publishedAt: '2030-01-02T09:30',
    };
    const created = articlePayload(f);
    expect(created.slug).toBe('my-post');
    expect(created.expectedUpdatedAt).toBeUndefined();
    expect(created.publishedAt).toBe(new Date('2030-01-02T09:30').toISOString());
    expect(ArticleInputSchema.safeParse(created).success).toBe(true);
    const updated = articlePayload({ ...f, id: 7, updatedAt: '2025-01-01T00:00:00.000Z' });
    expect(updated.expectedUpdatedAt).toBe('2025-01-01T00:00:00.000Z');
    expect(articlePayload({ ...f, publishedAt: '' }).publishedAt).toBeNull();
  });
});

describe('event form', () => {
  it('defaults the contact email to the campaign events address', () => {
    expect(newEventForm().contactEmail).toBe(DEFAULT_EVENTS_EMAIL);
    expect(eventPayload({ ...newEventForm(), contactEmail: ' ' }).contactEmail).toBe(DEFAULT_EVENTS_EMAIL);
  });

  it('max attendees: empty means none, otherwise an integer', () => {
    expect(maxAttendeesValue('')).toBeNull();
    expect(maxAttendeesValue('  ')).toBeNull();
    expect(maxAttendeesValue('150')).toBe(150);
    expect(maxAttendeesValue('12.7')).toBe(12);
  });

  it('builds a payload the shared schema accepts', () => {
    const f = {
      ...newEventForm(),
      title: 'Town Hall',
      location: 'Library',
      eventDate: '2030-05-01',
      startTime: '18:00',
      endTime: '19:30',
    };
    const parsed = EventInputSchema.safeParse(eventPayload(f));
    expect(parsed.success).toBe(true);
    expect(parsed.data?.maxAttendees).toBeNull();
  });
});

describe('Spanish versions (docs/decisions/166-spanish.md)', () => {
  const article = ArticleSchema.parse({
    id: 7,
    title: 'Streets',
    content: '<p>Potholes.</p>',
    excerpt: '',
    imageUrl: '',
    author: 'Press Office',
    slug: 'streets',
    isPublished: true,
    publishedAt: '2025-09-01T12:34:56.789Z',
    createdAt: '2025-09-01T00:00:00.000Z',
    updatedAt: '2025-09-02T00:00:00.000Z',
  });

  it('the article payload resends the English exactly as loaded, with the 409 check, plus the Spanish', () => {
    const f = { title: ' Calles ', slug: 'Calles Ya', excerpt: '', content: '<p>Baches.</p>' };
    expect(hasRequiredTranslationFields(f)).toBe(true);
    expect(hasRequiredTranslationFields({ ...f, content: ' ' })).toBe(false);
    const payload = articleTranslationPayload(article, 'es', { ...f, upToDate: true });
    expect(payload).toMatchObject({
      title: 'Streets',
      slug: 'streets',
      publishedAt: '2025-09-01T12:34:56.789Z',
      expectedUpdatedAt: article.updatedAt,
      translations: { es: { title: 'Calles', slug: 'calles-ya', content: '<p>Baches.</p>', upToDate: true } },
    });
    expect(ArticleInputSchema.safeParse(payload).success).toBe(true);
    expect(articleTranslationPayload(article, 'es', null).translations).toEqual({ es: null });
    expect(articleTranslationForm(article, 'es')).toEqual({ title: '', slug: '', excerpt: '', content: '' });
    expect(translationEdited(article, 'es', { ...articleTranslationForm(article, 'es'), title: 'x' })).toBe(
      true,
    );
  });

  it('the event form: Spanish fields, removal when both are emptied, stale status and Mark as up to date', () => {
    const base = EventSchema.parse({
      id: 3,
      title: 'Town Hall',
      description: 'Open to all.',
      location: 'Library',
      eventDate: '2030-05-01',
      startTime: '18:00',
      endTime: '',
      eventType: 'town_hall',
      isPublic: true,
      maxAttendees: null,
      registrationRequired: false,
      registrationUrl: '',
      contactEmail: DEFAULT_EVENTS_EMAIL,
      notes: '',
      createdAt: '2025-09-01T00:00:00.000Z',
      updatedAt: '2025-09-01T00:00:00.000Z',
    });
    expect(eventPayload(eventForm(base)).translations).toBeUndefined();
    const withEs = eventPayload({ ...eventForm(base), esTitle: ' Asamblea ', esDescription: 'Abierta.' });
    expect(withEs.translations).toEqual({ es: { title: 'Asamblea', description: 'Abierta.' } });
    expect(EventInputSchema.safeParse(withEs).success).toBe(true);

    const source = { sourceUpdatedAt: base.updatedAt, updatedAt: base.updatedAt };
    const stale = {
      ...base,
      translations: { es: { title: 'Asamblea', description: 'Abierta.', sourceHash: 'old', ...source } },
    };
    const f = eventForm(stale);
    expect(f.esLoaded.status).toBe('stale');
    expect(eventPayload({ ...f, esUpToDate: true }).translations).toEqual({
      es: { title: 'Asamblea', description: 'Abierta.', upToDate: true },
    });
    expect(eventPayload({ ...f, esTitle: '', esDescription: '' }).translations).toEqual({ es: null });
    const current = {
      ...stale,
      translations: { es: { ...stale.translations.es, sourceHash: eventSourceHash(base) } },
    };
    expect(eventForm(current).esLoaded.status).toBe('current');
    expect(articleSourceHash(article)).toMatch(/^[0-9a-f]{8}$/);
  });
});

describe('user form', () => {
  const f = { ...newUserForm(), id: 3, username: 'sam', email: 'sam@example.com', firstName: 'Sam' };

  it('omits a blank password on update', () => {
    expect('password' in updateUserPayload({ ...f, password: '' })).toBe(false);
    expect('password' in updateUserPayload({ ...f, password: '   ' })).toBe(false);
    expect(updateUserPayload({ ...f, password: 'new-secret' }).password).toBe('new-secret');
    expect(UserUpdateSchema.safeParse(updateUserPayload(f)).success).toBe(true);
  });

  it('sends the password on create', () => {
    const p = createUserPayload({ ...f, id: 0, password: 'secret1' });
    expect(p.password).toBe('secret1');
    expect(UserCreateSchema.safeParse(p).success).toBe(true);
  });
});

describe('integer fallbacks', () => {
  it('display order falls back to 1 and is at least 1', () => {
    expect(displayOrderValue('')).toBe(1);
    expect(displayOrderValue('abc')).toBe(1);
    expect(displayOrderValue('0')).toBe(1);
    expect(displayOrderValue('-4')).toBe(1);
    expect(displayOrderValue('3')).toBe(3);
    const p = socialPayload({
      id: 1,
      url: 'https://x.com/a',
      handle: '@a',
      isActive: true,
      displayOrder: '',
      updatedAt: 'u',
    });
    expect(p.displayOrder).toBe(1);
    expect(SocialLinkUpdateSchema.safeParse(p).success).toBe(true);
  });

  it('metric, goal and milestone numbers fall back to 0; milestone target is optional', () => {
    expect(int0('')).toBe(0);
    expect(int0('x')).toBe(0);
    expect(int0('42')).toBe(42);
    const m = metricPayload({
      id: 1,
      label: 'Doors',
      sublabel: '',
      currentValue: 'abc',
      targetValue: '1000',
      description: '',
      trend: '',
      isPublic: true,
    });
    expect(m).toMatchObject({ currentValue: 0, targetValue: 1000, isPublic: true });
    expect(MetricUpdateSchema.safeParse(m).success).toBe(true);
    const g = goalPayload({
      id: 1,
      description: 'Recruits',
      currentCount: '',
      targetCount: '15',
      deadline: '2025-10-04',
      priority: 'high',
    });
    expect(g).toMatchObject({ currentCount: 0, targetCount: 15 });
    expect(VolunteerGoalUpdateSchema.safeParse(g).success).toBe(true);
    const ms = milestonePayload({
      id: 1,
      label: 'L',
      description: '',
      currentCount: '5',
      targetCount: '',
      isPublic: false,
    });
    expect(ms.targetCount).toBeNull();
    expect(
      milestonePayload({
        id: 1,
        label: 'L',
        description: '',
        currentCount: '5',
        targetCount: 'zz',
        isPublic: false,
      }).targetCount,
    ).toBe(0);
    expect(MilestoneUpdateSchema.safeParse(ms).success).toBe(true);
  });
});

describe('datetime helpers', () => {
  it('round-trips datetime-local values', () => {
    const iso = fromLocalInput('2030-01-02T09:30');
    expect(iso).not.toBeNull();
    expect(toLocalInput(iso)).toBe('2030-01-02T09:30');
    expect(fromLocalInput('')).toBeNull();
    expect(toLocalInput(null)).toBe('');
    expect(formatTime('18:05')).toBe('6:05 PM');
    expect(formatTime('00:15')).toBe('12:15 AM');
  });
});
