import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { candidate } from '../../src/content/campaign';
import { islandUi } from '../../src/content/ui';
import { carouselVideos } from '../../src/content/home';
import { candidatePortrait, videoPosters } from '../../src/content/media';
import HomeCarousel, { embedUrl } from '../../src/components/react/HomeCarousel';

/** The carousel as its static HTML (what the page ships before hydration). */
const render = (videos: Parameters<typeof HomeCarousel>[0]['videos']) =>
  renderToStaticMarkup(
    createElement(HomeCarousel, {
      videos,
      candidateName: candidate.fullName,
      words: islandUi,
      donateHref: '/donate',
      volunteerHref: '/volunteer',
      volunteerLabel: 'Volunteer',
    }),
  );

const poster = {
  sources: [{ type: 'image/avif', srcset: '/_astro/p.480.avif 480w, /_astro/p.960.avif 960w' }],
  src: '/_astro/p.720.webp',
  srcset: '/_astro/p.480.webp 480w, /_astro/p.960.webp 960w',
  sizes: '100vw',
  width: 1920,
  height: 1080,
};

describe('home carousel posters', () => {
  it('without a poster, each slide shows the designed fallback (candidate and title), no image', () => {
    const html = render(carouselVideos.map((v) => ({ ...v })));
    expect(html).not.toContain('<img');
    for (const video of carouselVideos) {
      expect(html).toContain(`<span class="hero-poster-title">${video.title}</span>`);
    }
    expect(html.split(`<span class="hero-poster-name">${candidate.fullName}</span>`)).toHaveLength(
      carouselVideos.length + 1,
    );
  });

  it('with posters: the site image, sized, only the first fetched early; the provider only behind Play', () => {
    const html = render(carouselVideos.map((v) => ({ ...v, poster })));
    const imgs = html.match(/<img[^>]*>/g) ?? [];
    expect(imgs).toHaveLength(carouselVideos.length);
    expect(imgs[0]).toMatch(/fetchPriority="high"|fetchpriority="high"/);
    expect(imgs[0]).toMatch(/loading="eager"/);
    expect(imgs[1]).toMatch(/loading="lazy"/);
    for (const img of imgs) expect(img).toMatch(/width="1920" height="1080"/);
    expect(html).toContain('type="image/avif"');
    // The fallback stays underneath: if the image fails, the design shows, not a broken image.
    expect(html).toContain('hero-poster-fallback');
    // The video provider appears only as where each Play link goes (followed only when pressed): no
    // image, frame or other resource of it in the page.
    const links = html.match(/<a class="hero-play"[^>]*>/g) ?? [];
    expect(links.map((a) => /href="([^"]+)"/.exec(a)?.[1])).toEqual(
      carouselVideos.map((v) => embedUrl(v.videoId)),
    );
    expect(links.reduce((rest, a) => rest.replace(a, ''), html)).not.toMatch(/youtube|ytimg/);
  });

  it('the player URL (used only after play) is the privacy-enhanced youtube-nocookie.com', () => {
    expect(embedUrl('abc_DEF-123')).toBe('https://www.youtube-nocookie.com/embed/abc_DEF-123?autoplay=1');
  });
});

describe('campaign images (src/content/media.ts)', () => {
  it('every poster belongs to a carousel video (a renamed video id would silently lose its poster)', () => {
    const ids = new Set(carouselVideos.map((v) => v.videoId));
    for (const id of Object.keys(videoPosters)) expect(ids.has(id), id).toBe(true);
  });
  it('the portrait has an image and alt text naming the candidate', () => {
    expect(candidatePortrait.image).toBeTruthy();
    expect(candidatePortrait.alt).toContain(candidate.fullName);
  });
});
