import type { ImageMetadata } from 'astro';
import { getImage } from 'astro:assets';

/**
 * Campaign images through Astro's image pipeline at build time: AVIF and WebP
 * at the widths a layout needs, written to /_astro/ (fingerprinted, cached for
 * a year). The result is plain data, so a React island (the home carousel) can
 * render it as well as an .astro component (ResponsivePicture). Build-time only
 * (astro:assets): pages call it, islands receive its result as a prop.
 */
export interface ResponsiveImage {
  /** AVIF first: the browser takes the first type it supports, WebP on the <img> otherwise. */
  sources: { type: string; srcset: string }[];
  /** The WebP image at the middle width, for the <img> src. */
  src: string;
  srcset: string;
  sizes: string;
  /** Intrinsic size (aspect ratio) for width/height: the space is reserved before the image arrives. */
  width: number;
  height: number;
}

export interface ResponsiveImageOptions {
  /** The widths to generate (larger than the original are dropped): the rendered sizes times 1x-2x density. */
  widths: number[];
  /** The `sizes` attribute: how wide the image is laid out. */
  sizes: string;
  /** 0-100; lower for images under an overlay. */
  quality?: number;
}

const FORMATS = [
  { format: 'avif', type: 'image/avif' },
  { format: 'webp', type: 'image/webp' },
] as const;

export async function responsiveImage(
  src: ImageMetadata,
  { widths, sizes, quality = 60 }: ResponsiveImageOptions,
): Promise<ResponsiveImage> {
  const usable = widths.filter((w) => w <= src.width);
  const list = usable.length > 0 ? usable : [src.width];
  // The dev server encodes each image when it is first asked for: AVIF there cost most of a fresh `npm run dev`'s
  // first home page (docs/benchmarks.md, "First home page on a fresh dev server"), so development serves WebP alone.
  // The build (every deploy and every test of the built site) encodes both, once.
  const encode = (format: 'avif' | 'webp') => getImage({ src, widths: list, sizes, format, quality });
  const [webp, avif] = await Promise.all([encode('webp'), import.meta.env.DEV ? null : encode('avif')]);
  const middle = await getImage({
    src,
    width: list[Math.floor((list.length - 1) / 2)]!,
    format: 'webp',
    quality,
  });
  return {
    sources: avif ? [{ type: FORMATS[0].type, srcset: avif.srcSet.attribute }] : [],
    src: middle.src,
    srcset: webp.srcSet.attribute,
    sizes,
    width: src.width,
    height: src.height,
  };
}

/** Carousel posters: the full width of the viewport (a 16:9 band on phones, the whole hero on wide screens). */
export const POSTER_LAYOUT: ResponsiveImageOptions = {
  widths: [480, 720, 960, 1280, 1920],
  sizes: '100vw',
  // Under the hero's dark gradient and text: a lower quality is not visible, and the first is the largest paint.
  quality: 50,
};

/** The candidate portrait: at most 20rem wide (home summary, about biography). */
export const PORTRAIT_LAYOUT: ResponsiveImageOptions = {
  widths: [320, 480, 640],
  sizes: '(min-width: 22rem) 20rem, calc(100vw - 2rem)',
  quality: 65,
};
