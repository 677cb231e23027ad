import { describe, expect, it } from 'vitest';
import { parseSocialLinks } from '../../src/lib/client/social-links';

describe('parseSocialLinks', () => {
  it('keeps order and uses the handle, else the platform name, as label', () => {
    const links = parseSocialLinks({
      links: [
        { id: '1', platform: 'x', url: 'https://x.com/avery', handle: '@avery' },
        { id: '2', platform: 'youtube', url: 'https://youtube.com/@avery', handle: '' },
        { id: '3', platform: 'linkedin', url: 'https://linkedin.com/in/avery', handle: null },
      ],
    });
    expect(links).toEqual([
      { platform: 'x', url: 'https://x.com/avery', label: '@avery' },
      { platform: 'youtube', url: 'https://youtube.com/@avery', label: 'YouTube' },
      { platform: 'linkedin', url: 'https://linkedin.com/in/avery', label: 'LinkedIn' },
    ]);
  });

  it('drops unknown platforms and non-http URLs', () => {
    const links = parseSocialLinks({
      links: [
        { platform: 'myspace', url: 'https://myspace.com/a', handle: 'a' },
        { platform: 'facebook', url: 'javascript:alert(1)', handle: 'b' },
        { platform: 'tiktok', url: '/relative', handle: 'c' },
        'garbage',
        null,
      ],
    });
    expect(links).toEqual([]);
  });

  it('returns no links for bodies that are not the expected shape', () => {
    for (const body of [null, undefined, 'x', 42, [], {}, { links: 'nope' }, { error: 'Not found' }]) {
      expect(parseSocialLinks(body)).toEqual([]);
    }
  });
});
