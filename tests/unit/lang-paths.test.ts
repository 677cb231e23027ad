import { describe, expect, it } from 'vitest';
import { alternatePaths, basePath, isTranslated, langOfPath, localizedPath } from '../../src/lib/lang-paths';
import { navState } from '../../src/lib/nav';

describe('language paths (docs/decisions/166-spanish.md)', () => {
  it('finds the language and the unprefixed page of a path', () => {
    expect(langOfPath('/es/about')).toBe('es');
    expect(langOfPath('/es')).toBe('es');
    expect(langOfPath('/about')).toBe('en');
    expect(langOfPath('/espanol')).toBe('en');
    expect(basePath('/es/about')).toBe('/about');
    expect(basePath('/es')).toBe('/');
    expect(basePath('/')).toBe('/');
  });

  it('localizes public pages, keeps hashes and queries, leaves the rest alone', () => {
    expect(localizedPath('/', 'es')).toBe('/es');
    expect(localizedPath('/about', 'es')).toBe('/es/about');
    expect(localizedPath('/#text-signup-form', 'es')).toBe('/es#text-signup-form');
    expect(localizedPath('/volunteer#volunteer-form', 'es')).toBe('/es/volunteer#volunteer-form');
    expect(localizedPath('/forms/contact?error=400', 'es')).toBe('/es/forms/contact?error=400');
    expect(localizedPath('/article/a-b', 'es')).toBe('/es/article/a-b');
    // Event pages are in both languages (their RSVP form's way back too), and so is the cancellation page.
    expect(localizedPath('/events/7#rsvp-heading', 'es')).toBe('/es/events/7#rsvp-heading');
    expect(localizedPath('/rsvp/cancel?event=1', 'es')).toBe('/es/rsvp/cancel?event=1');
    expect(localizedPath('/es/about', 'es')).toBe('/es/about');
    expect(localizedPath('/es/about', 'en')).toBe('/es/about');
    for (const staff of ['/admin', '/forgot-password', '/reset-password', '/api/news', '/rss.xml'])
      expect(localizedPath(staff, 'es')).toBe(staff);
    expect(localizedPath('https://example.org/about', 'es')).toBe('https://example.org/about');
    expect(localizedPath('mailto:a@b.example', 'es')).toBe('mailto:a@b.example');
  });

  it('lists reciprocal alternates only for translated pages', () => {
    expect(alternatePaths('/es/platform')).toEqual({ en: '/platform', es: '/es/platform' });
    expect(alternatePaths('/platform')).toEqual({ en: '/platform', es: '/es/platform' });
    expect(alternatePaths('/es')).toEqual({ en: '/', es: '/es' });
    // The build's forms of the same pages.
    expect(alternatePaths('/es/about.html')).toEqual({ en: '/about', es: '/es/about' });
    expect(alternatePaths('/about/')).toEqual({ en: '/about', es: '/es/about' });
    expect(alternatePaths('/index.html')).toEqual({ en: '/', es: '/es' });
    expect(alternatePaths('/admin')).toEqual({});
    expect(alternatePaths('/es/events/7')).toEqual({ en: '/events/7', es: '/es/events/7' });
    expect(isTranslated('/blog/page/3')).toBe(true);
    expect(isTranslated('/404')).toBe(false);
  });

  it('highlights News on articles in the same language only', () => {
    expect(navState('/es/blog', '/es/article/x')).toEqual({ active: true, current: 'true' });
    expect(navState('/blog', '/es/article/x').active).toBe(false);
    expect(navState('/es/about', '/es/about')).toEqual({ active: true, current: 'page' });
  });
});
