/** The site's own client directives (astro.config.mjs). */
declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on the first interaction with the island (src/lib/client/directives/interaction.ts). */
    'client:interaction'?: boolean | { pendingKey?: string };
  }
}
export {};
