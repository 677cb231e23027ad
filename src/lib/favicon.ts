/**
 * The site icon (src/pages/favicon.png.ts draws it from src/assets/favicon.svg
 * at build time; BaseLayout links it). 64 px: a 32 px tab icon at two device
 * pixels per CSS pixel.
 */
export const FAVICON = { path: '/favicon.png', size: 64 } as const;
