/** The site's own client directives (astro.config.mjs). */
declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on the first interaction with the island, at once with `pendingKey` saved, or `after` ms (src/lib/client/directives/interaction.ts). */
    'client:interaction'?: boolean | { pendingKey?: string; after?: number };
  }
}
export {};
