import type { ResponsiveImage } from '../../lib/images.ts';
import type { IslandUi } from '../../content/ui.ts';
import type { CarouselVideo } from '../../lib/schemas/content.ts';
import { fill } from '../../lib/fill.ts';
import { embedUrl } from '../../lib/video-embed.ts';
import '../../styles/islands.css';

/** A slide: the schema's carousel video, with the campaign's poster optimised at build (without one, the designed fallback shows). */
export type CarouselSlide = CarouselVideo & { poster?: ResponsiveImage | undefined };

/**
 * The `islandUi` words the carousel shows. The page passes only these: every prop is serialised into the
 * home page's HTML, whose first screen has to fit the first round trip (docs/decisions/162-public-pages-and-performance.md).
 */
export const CAROUSEL_WORDS = [
  'carouselLabel',
  'slideOf',
  'slideStatus',
  'playVideo',
  'videoPlayer',
  'donateNow',
  'previousSlide',
  'nextSlide',
  'pauseSlideshow',
  'playSlideshow',
  'pause',
  'play',
] as const satisfies readonly (keyof IslandUi)[];

interface Props {
  videos: CarouselSlide[];
  /** Shown with the slide title on the fallback poster. */
  candidateName: string;
  /** Spec section 9: 600 ms slide transition. */
  transitionMs?: number;
  /** Spec section 9: 6000 ms autoplay interval. */
  autoplayMs?: number;
  /** The carousel's words in the page's language (src/content/ui.ts `islandUi`, the CAROUSEL_WORDS of it). */
  words: Pick<IslandUi, (typeof CAROUSEL_WORDS)[number]>;
  /** The call-to-action links in the page's language. */
  donateHref: string;
  volunteerHref: string;
  volunteerLabel: string;
}

export { embedUrl };

/** The words the carousel's script needs after the page has loaded (src/scripts/home-carousel.ts). */
export type CarouselScriptWords = Pick<
  IslandUi,
  'slideStatus' | 'pauseSlideshow' | 'playSlideshow' | 'pause' | 'play' | 'videoPlayer'
>;

/**
 * Home hero: two video slides that loop, with a visible pause/play control
 * (WCAG 2.2.2) and previous/next buttons. Rendered on the server only (no
 * React in the browser, docs/decisions/162-public-pages-and-performance.md): the first slide is in the static HTML
 * (LCP), and src/scripts/home-carousel.ts adds the behaviour. Autoplay starts
 * once the script runs unless reduced motion or data saving is on, and stops
 * for good once a video is played.
 */
export default function HomeCarousel({
  videos,
  candidateName,
  transitionMs = 600,
  autoplayMs = 6000,
  words,
  donateHref,
  volunteerHref,
  volunteerLabel,
}: Props) {
  // The state the page is served in; the script moves on from here.
  const index = 0;
  const playing = false;
  const count = videos.length;
  if (count === 0) return null;
  const scriptWords: CarouselScriptWords = {
    slideStatus: words.slideStatus,
    pauseSlideshow: words.pauseSlideshow,
    playSlideshow: words.playSlideshow,
    pause: words.pause,
    play: words.play,
    videoPlayer: words.videoPlayer,
  };

  return (
    <section
      className="hero-carousel"
      aria-roledescription="carousel"
      aria-label={words.carouselLabel}
      data-autoplay={playing ? 'on' : 'off'}
      data-carousel={JSON.stringify({ autoplayMs, words: scriptWords })}
      // Previous, Next and the slideshow toggle clicked before the script has started are kept for it
      // (page-script-start.mjs).
      data-early-clicks
    >
      <div className="hero-viewport">
        <div
          className="hero-track"
          style={{
            transform: `translateX(-${index * 100}%)`,
            transitionDuration: `${transitionMs}ms`,
          }}
        >
          {videos.map((video, i) => {
            const current = i === index;
            return (
              <div
                key={video.videoId}
                className="hero-slide"
                role="group"
                aria-roledescription="slide"
                aria-label={fill(words.slideOf, i + 1, count)}
                aria-hidden={!current}
                inert={!current}
                data-slide={i}
              >
                <div className="hero-media" data-video-id={video.videoId} data-video-title={video.title}>
                  <>
                    {/* The designed fallback: under the poster, so a missing or failed image shows it, never a broken one. */}
                    <div className="hero-poster-fallback" aria-hidden="true">
                      <span className="hero-poster-name">{candidateName}</span>
                      <span className="hero-poster-title">{video.title}</span>
                    </div>
                    {video.poster && (
                      <picture>
                        {video.poster.sources.map((s) => (
                          <source key={s.type} type={s.type} srcSet={s.srcset} sizes={video.poster!.sizes} />
                        ))}
                        <img
                          className="hero-thumb"
                          src={video.poster.src}
                          srcSet={video.poster.srcset}
                          sizes={video.poster.sizes}
                          alt=""
                          width={video.poster.width}
                          height={video.poster.height}
                          loading={i === 0 ? 'eager' : 'lazy'}
                          fetchPriority={i === 0 ? 'high' : 'auto'}
                          decoding="async"
                        />
                      </picture>
                    )}
                    {/*
                     * A link to the player, so Play works before the script has started and with
                     * JavaScript off (the player opens as a page); the script plays it in place.
                     */}
                    <a
                      className="hero-play"
                      href={embedUrl(video.videoId)}
                      data-carousel-play
                      aria-label={fill(words.playVideo, video.title)}
                    >
                      <svg viewBox="0 0 24 24" width="36" height="36" aria-hidden="true" focusable="false">
                        <path d="M8 5v14l11-7z" fill="currentColor" />
                      </svg>
                    </a>
                  </>
                </div>
                <div className="hero-content">
                  <span className="badge hero-badge">{video.badge}</span>
                  <h2 className="hero-title">{video.title}</h2>
                  <div className="cta-row">
                    <a className="btn btn--primary" href={donateHref}>
                      {words.donateNow}
                    </a>
                    <a className="btn btn--light" href={volunteerHref}>
                      {volunteerLabel}
                    </a>
                  </div>
                </div>
              </div>
            );
          })}
        </div>
      </div>
      {count > 1 && (
        <div className="hero-controls">
          <button
            type="button"
            className="hero-control"
            data-carousel-step="-1"
            aria-label={words.previousSlide}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <button
            type="button"
            className="hero-control hero-control--toggle"
            data-carousel-toggle
            aria-label={playing ? words.pauseSlideshow : words.playSlideshow}
          >
            <span aria-hidden="true" data-carousel-icon>
              {playing ? '❚❚' : '▶'}
            </span>
            <span className="hero-control-text">{playing ? words.pause : words.play}</span>
          </button>
          <button type="button" className="hero-control" data-carousel-step="1" aria-label={words.nextSlide}>
            <span aria-hidden="true">›</span>
          </button>
          {/* Announce only slide changes the visitor made, never autoplay ticks. */}
          <p
            className="visually-hidden"
            aria-live={playing ? 'off' : 'polite'}
            aria-atomic="true"
            data-carousel-status
          >
            {fill(words.slideStatus, index + 1, count)}
          </p>
        </div>
      )}
    </section>
  );
}
