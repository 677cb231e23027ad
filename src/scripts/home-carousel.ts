import type { CarouselScriptWords } from '../components/react/HomeCarousel.tsx';
import { fill } from '../lib/fill.ts';
import { takeEarlyClicks } from '../lib/page-script-start.mjs';
import { embedUrl } from '../lib/video-embed.ts';

/**
 * The home hero's behaviour on its server-rendered markup (src/components/react/HomeCarousel.tsx):
 * autoplay (not with reduced motion or data saving; a visible Pause/Play control,
 * WCAG 2.2.2), Previous/Next that loop, slide changes the visitor made announced,
 * and Play swapping in the video player, which stops autoplay for good.
 * A few hundred bytes instead of React (docs/decisions/162-public-pages-and-performance.md).
 */
export function startCarousel(root: HTMLElement): void {
  const { autoplayMs, words } = JSON.parse(root.dataset.carousel ?? '{}') as {
    autoplayMs: number;
    words: CarouselScriptWords;
  };
  const track = root.querySelector<HTMLElement>('.hero-track');
  const slides = [...root.querySelectorAll<HTMLElement>('.hero-slide')];
  const toggle = root.querySelector<HTMLButtonElement>('[data-carousel-toggle]');
  const status = root.querySelector<HTMLElement>('[data-carousel-status]');
  const count = slides.length;
  if (!track || count === 0) return;

  let index = 0;
  let playing = false;
  let timer: number | undefined;

  const render = () => {
    track.style.transform = `translateX(-${index * 100}%)`;
    slides.forEach((slide, i) => {
      slide.setAttribute('aria-hidden', String(i !== index));
      slide.inert = i !== index;
    });
    root.dataset.autoplay = playing ? 'on' : 'off';
    if (toggle) {
      toggle.setAttribute('aria-label', playing ? words.pauseSlideshow : words.playSlideshow);
      const icon = toggle.querySelector('[data-carousel-icon]');
      const text = toggle.querySelector('.hero-control-text');
      if (icon) icon.textContent = playing ? '❚❚' : '▶';
      if (text) text.textContent = playing ? words.pause : words.play;
    }
    if (status) {
      // Announce only slide changes the visitor made, never autoplay ticks.
      status.setAttribute('aria-live', playing ? 'off' : 'polite');
      status.textContent = fill(words.slideStatus, index + 1, count);
    }
    // The autoplay interval restarts after every change, as a visitor's Next resets the clock.
    window.clearInterval(timer);
    if (playing && count > 1) timer = window.setInterval(() => go(1), autoplayMs);
  };
  const go = (delta: number) => {
    index = (index + delta + count) % count;
    render();
  };

  root.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const step = target?.closest<HTMLElement>('[data-carousel-step]');
    if (step) return go(Number(step.dataset.carouselStep));
    if (target?.closest('[data-carousel-toggle]')) {
      playing = !playing;
      return render();
    }
    const media = target?.closest('[data-carousel-play]')?.closest<HTMLElement>('.hero-media');
    if (media) {
      // Play is a link to the player (it works before this script and without it): here it plays in place.
      event.preventDefault();
      const player = document.createElement('iframe');
      player.className = 'hero-player';
      player.src = embedUrl(media.dataset.videoId ?? '');
      player.title = fill(words.videoPlayer, media.dataset.videoTitle ?? '');
      player.allow = 'autoplay; encrypted-media; picture-in-picture; fullscreen';
      player.allowFullscreen = true;
      player.referrerPolicy = 'strict-origin-when-cross-origin';
      media.replaceChildren(player);
      // The link that had focus is gone: focus goes to the player, not back to the top of the page.
      player.focus({ preventScroll: true });
      playing = false;
      render();
    }
  });

  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  const saveData =
    (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
  if (reduced) track.style.transitionDuration = '0ms';
  playing = !reduced && !saveData && count > 1;
  render();
  root.dataset.ready = '';

  // Previous, Next and the slideshow toggle clicked before this script had started (the loader kept them), as
  // the visitor meant them: the toggle then read "Play slideshow", the state the page is served in.
  let meant = false;
  for (const target of takeEarlyClicks(document, root)) {
    const step = target.closest<HTMLElement>('[data-carousel-step]');
    if (step) go(Number(step.dataset.carouselStep));
    else if (target.closest('[data-carousel-toggle]')) {
      meant = !meant;
      playing = meant;
      render();
    }
  }
}
