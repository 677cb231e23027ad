import type { ImageMetadata } from 'astro';
import portrait from '../assets/candidate/portrait.jpg';
import meetTheCandidate from '../assets/posters/meet-the-candidate.jpg';
import oneTermPlan from '../assets/posters/one-term-plan.jpg';
import { mediaCopy } from './ui';

/*
 * The campaign's images: one file each under src/assets/, optimised at build
 * (AVIF/WebP at the sizes each layout uses). To change one, replace the file
 * or point its import here at another. Pages import this module; server code
 * never does.
 */

/** The candidate's portrait on the home and about pages (a placeholder until the campaign supplies a photo). */
export const candidatePortrait = {
  image: portrait,
  /** English; pages take the alt in their language from `ui.mediaCopy.portraitAlt`. */
  alt: mediaCopy.portraitAlt,
};

/**
 * The poster shown on each carousel video until it is played, by video id (so
 * the video provider is contacted only when a visitor presses play). A video
 * without a poster shows the designed fallback: the candidate's name and the
 * slide title on the campaign navy. Keys are the `videoId`s of `carouselVideos`
 * in home.ts (a unit test fails on a key that names no video).
 */
export const videoPosters: Partial<Record<string, ImageMetadata>> = {
  'REPLACE-ME-01': meetTheCandidate,
  'REPLACE-ME-02': oneTermPlan,
};
