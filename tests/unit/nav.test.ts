import { describe, expect, it } from 'vitest';
import { navState, normalizePath } from '../../src/lib/nav';

describe('normalizePath', () => {
  it('drops trailing slashes but keeps the root', () => {
    expect(normalizePath('/about/')).toBe('/about');
    expect(normalizePath('/')).toBe('/');
  });
});

describe('navState', () => {
  it('marks the link of the current page', () => {
    expect(navState('/about', '/about/')).toEqual({ active: true, current: 'page' });
    expect(navState('/', '/')).toEqual({ active: true, current: 'page' });
  });

  it('does not mark Home on other pages', () => {
    expect(navState('/', '/about')).toEqual({ active: false, current: undefined });
  });

  it('highlights News for articles', () => {
    expect(navState('/blog', '/article/some-slug')).toEqual({ active: true, current: 'true' });
  });
});
