import { z } from './zod.ts';

/**
 * One thing that must be replaced or set before the site goes live (the launch
 * gate: docs/decisions/085-launch-gate.md). The same items fail a production
 * build, are printed by `npm run launch-check` and are listed for admins on the
 * dashboard (GET /api/admin/launch-check answers the settings).
 */
export const LaunchItemSchema = z.object({
  /** Stable key, e.g. 'video:REPLACE-ME-01' or 'setting:SESSION_SECRET'. */
  key: z.string(),
  /**
   * 'content': the site's files (fixed at build); 'settings': environment variables; 'calendar': the election
   * calendar staff keep in the dashboard.
   */
  area: z.enum(['content', 'settings', 'calendar']),
  /** What is missing and how to fix it, one sentence or two. */
  message: z.string(),
});
export type LaunchItem = z.infer<typeof LaunchItemSchema>;

export const LaunchCheckResponseSchema = z.object({ items: z.array(LaunchItemSchema) });
export type LaunchCheckResponse = z.infer<typeof LaunchCheckResponseSchema>;
