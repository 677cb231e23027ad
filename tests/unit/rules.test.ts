import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { slugify, categoryFor, isArticlePublic, ArticleInputSchema } from '../../src/lib/schemas/article.ts';
import { hasPermission, hasRole, canEditContent } from '../../src/lib/schemas/permissions.ts';
import { toE164, intOr, email } from '../../src/lib/schemas/fields.ts';
import { TextSignupSchema } from '../../src/lib/schemas/forms.ts';
import { SocialLinkUpdateSchema, socialTitle } from '../../src/lib/schemas/social.ts';
import { MilestoneUpdateSchema } from '../../src/lib/schemas/progress.ts';
import { UserUpdateSchema, displayName } from '../../src/lib/schemas/user.ts';
import { key, hashed } from '../../src/lib/server/storage/keys.ts';
import { pageOf, pageQuery } from '../../src/lib/server/pagination.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

describe('slugify (spec section 5)', () => {
  it('lowercases and turns every other character into a hyphen', () => {
    expect(slugify('Hello World! 2025')).toBe('hello-world--2025');
    expect(slugify('Café-Ünïcode')).toBe('caf---n-code');
  });
  it('always yields only a-z, 0-9 and hyphens, keeps the length, and is idempotent', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const out = slugify(s);
        expect(out).toMatch(/^[a-z0-9-]*$/);
        expect(slugify(out)).toBe(out);
      }),
    );
  });
});

describe('permissions (spec section 6)', () => {
  const admin = { role: 'admin' as const };
  const editor = { role: 'editor' as const };
  const viewer = { role: 'viewer' as const };
  it('matches the table', () => {
    expect([admin, editor, viewer].map((u) => hasPermission(u, 'view_admin'))).toEqual([true, true, true]);
    expect([admin, editor, viewer].map((u) => hasPermission(u, 'edit_metrics'))).toEqual([true, true, false]);
    expect([admin, editor, viewer].map((u) => hasPermission(u, 'manage_users'))).toEqual([
      true,
      false,
      false,
    ]);
    expect([admin, editor, viewer].map((u) => hasPermission(u, 'view_analytics'))).toEqual([
      true,
      true,
      true,
    ]);
    expect([admin, editor, viewer].map((u) => hasPermission(u, 'admin'))).toEqual([true, false, false]);
    expect([admin, editor, viewer].map((u) => hasPermission(u, 'anything_else'))).toEqual([
      true,
      false,
      false,
    ]);
    expect([admin, editor, viewer].map((u) => canEditContent(u))).toEqual([true, true, false]);
  });
  it('admin passes every role check, others only their own, nobody passes without a user', () => {
    expect(hasRole(admin, 'viewer')).toBe(true);
    expect(hasRole(editor, 'editor')).toBe(true);
    expect(hasRole(editor, 'admin')).toBe(false);
    expect(hasRole(viewer, 'editor')).toBe(false);
    expect(hasRole(null, 'viewer')).toBe(false);
    expect(hasPermission(null, 'view_admin')).toBe(false);
    expect(hasPermission(undefined, 'toString')).toBe(false);
    expect(hasPermission(editor, 'toString')).toBe(false);
  });
});

describe('category badge (spec section 9)', () => {
  it('derives the badge from the author text', () => {
    expect(categoryFor('Jordan Avery', 'Jordan Avery')).toBe('Policy');
    expect(categoryFor('Press Office', 'Jordan Avery')).toBe('Campaign News');
    expect(categoryFor('Campaign Team', 'Jordan Avery')).toBe('Events');
    expect(categoryFor('Guest Writer', 'Jordan Avery')).toBe('News');
  });
});

describe('article publication', () => {
  const now = new Date('2025-09-01T12:00:00Z');
  it('is public only when published and its time has come', () => {
    expect(isArticlePublic({ isPublished: false, publishedAt: null }, now)).toBe(false);
    expect(isArticlePublic({ isPublished: true, publishedAt: null }, now)).toBe(true);
    expect(isArticlePublic({ isPublished: true, publishedAt: '2025-08-31T00:00:00Z' }, now)).toBe(true);
    expect(isArticlePublic({ isPublished: true, publishedAt: '2025-09-02T00:00:00Z' }, now)).toBe(false);
  });
  it('requires title, slug, content and author with the spec message', () => {
    const r = ArticleInputSchema.safeParse({ title: ' ', slug: 'x', content: 'y', author: 'z' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Please fill in title, slug, content, and author.');
    const slugOnlySymbols = ArticleInputSchema.safeParse({
      title: 'T',
      slug: 'A B',
      content: 'c',
      author: 'a',
    });
    expect(slugOnlySymbols.success && slugOnlySymbols.data.slug).toBe('a-b');
  });
});

describe('field normalisation', () => {
  it('turns US phone numbers into E.164', () => {
    expect(toE164('(504) 555-0142')).toBe('+15045550142');
    expect(toE164('1-504-555-0142')).toBe('+15045550142');
    expect(toE164('+44 20 7946 0958')).toBe('+442079460958');
    expect(toE164('555-0142')).toBeNull();
    expect(toE164('call me')).toBeNull();
  });
  it('normalises email case and spacing', () => {
    expect(email.parse('  Pat@Example.ORG ')).toBe('pat@example.org');
    expect(email.safeParse('not-an-email').success).toBe(false);
  });
  it('parses admin integers with a 0 fallback', () => {
    expect(intOr('42', 0)).toBe(42);
    expect(intOr('4.9', 0)).toBe(4);
    expect(intOr('abc', 0)).toBe(0);
    expect(intOr('', 1)).toBe(1);
    fc.assert(fc.property(fc.anything(), (v) => Number.isInteger(intOr(v, 0))));
  });
  it('social display order falls back to 1 and is at least 1', () => {
    const base = { url: 'https://x.com/a', handle: '@a', isActive: true };
    expect(SocialLinkUpdateSchema.parse({ ...base, displayOrder: '' }).displayOrder).toBe(1);
    expect(SocialLinkUpdateSchema.parse({ ...base, displayOrder: '-3' }).displayOrder).toBe(1);
    expect(SocialLinkUpdateSchema.parse({ ...base, displayOrder: '4' }).displayOrder).toBe(4);
    expect(
      SocialLinkUpdateSchema.safeParse({ ...base, url: 'javascript:alert(1)', displayOrder: 1 }).success,
    ).toBe(false);
    expect(socialTitle({ handle: '  ', platform: 'tiktok' })).toBe('tiktok');
    expect(socialTitle({ handle: '@avery', platform: 'x' })).toBe('@avery');
  });
  it('milestone target is optional', () => {
    expect(
      MilestoneUpdateSchema.parse({ currentCount: '3', targetCount: '', label: 'Doors' }).targetCount,
    ).toBeNull();
    expect(
      MilestoneUpdateSchema.parse({ currentCount: 'x', targetCount: '10', label: 'Doors' }),
    ).toMatchObject({ currentCount: 0, targetCount: 10 });
  });
  it('a blank password on user update means unchanged', () => {
    expect(UserUpdateSchema.parse({ password: '' }).password).toBeUndefined();
    expect(UserUpdateSchema.parse({ password: 'secret1' }).password).toBe('secret1');
    expect(UserUpdateSchema.safeParse({ password: '123' }).success).toBe(false);
    expect(displayName({ firstName: ' ', username: 'pat' })).toBe('pat');
  });
  it('text sign-up: first name trimmed and consent required, with the spec messages', () => {
    const noName = TextSignupSchema.safeParse({ firstName: '   ', smsConsent: true });
    expect(noName.error?.issues[0]?.message).toBe('Please enter your first name.');
    const noConsent = TextSignupSchema.safeParse({ firstName: 'Ana', smsConsent: false });
    expect(noConsent.error?.issues[0]?.message).toBe(
      'Please check the box to consent to receiving text messages.',
    );
    expect(
      TextSignupSchema.parse({
        firstName: ' Ana ',
        phone: '504 555 0142',
        email: '',
        smsConsent: true,
        captcha: 'token',
      }),
    ).toMatchObject({
      firstName: 'Ana',
      phone: '+15045550142',
      email: undefined,
    });
  });
});

describe('store keys', () => {
  it('are built from safe parts only and stay under 600 bytes', () => {
    expect(key('user', 12)).toBe('user/12');
    expect(() => key('/abs')).toThrow();
    expect(() => key('a/b')).toThrow();
    expect(() => key('..')).toThrow();
    expect(() => key('x'.repeat(700))).toThrow();
    fc.assert(
      fc.property(fc.string(), (s) => {
        try {
          const k = key('p', s);
          expect(k.startsWith('/')).toBe(false);
          expect(k.split('/')).toHaveLength(2);
        } catch {
          /* refused: fine */
        }
      }),
    );
  });
  it('hash personal data after normalising it', () => {
    expect(hashed(' Pat@Example.org')).toBe(hashed('pat@example.org'));
    expect(hashed('pat@example.org')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('pagination', () => {
  it('pages with defaults and caps; malformed queries are refused, never guessed at', () => {
    const all = Array.from({ length: 120 }, (_, i) => i);
    expect(pageOf('items', all, pageQuery(new URL('http://x/?page=2')))).toEqual({
      items: all.slice(50, 100),
      total: 120,
      page: 2,
      pageSize: 50,
    });
    expect(pageQuery(new URL('http://x/?pageSize=200')).pageSize).toBe(200);
    for (const bad of ['pageSize=201', 'pageSize=0', 'page=0', 'page=-1', 'page=x', 'pageSize=1.5']) {
      expect(() => pageQuery(new URL(`http://x/?${bad}`)), bad).toThrow(HttpError);
    }
  });
});
