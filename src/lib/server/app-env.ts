/**
 * The two settings every function reads at start, parsed without zod: which
 * environment this is (APP_ENV) and the public origin (SITE_URL). The public
 * read functions (news, events, social links, metrics) need only these, and
 * zod alone is most of their start-up time
 * (docs/decisions/162-public-pages-and-performance.md). Every other setting is validated with zod by env() in
 * env.ts, which re-exports this module.
 */

export const APP_ENVS = ['production', 'development', 'test'] as const;
export type AppEnv = (typeof APP_ENVS)[number];

/** The local dev server's origin: SITE_URL's default. */
export const DEFAULT_SITE_URL = 'http://localhost:4321';

/** A missing or unsafe production setting: answered as 503, logged for the operator. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export interface AppSettings {
  APP_ENV: AppEnv;
  /** An absolute http(s) URL. */
  SITE_URL: string;
}

let cached: AppSettings | null = null;

const isAppEnv = (value: string): value is AppEnv => (APP_ENVS as readonly string[]).includes(value);

function parseSiteUrl(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
}

/** APP_ENV (default production) and SITE_URL, validated once (resetAppSettings after changing them). */
export function appSettings(): AppSettings {
  if (cached) return cached;
  const appEnv = process.env.APP_ENV ?? 'production';
  if (!isAppEnv(appEnv)) throw new ConfigError(`APP_ENV must be one of ${APP_ENVS.join(', ')}`);
  const siteUrl = parseSiteUrl(process.env.SITE_URL ?? DEFAULT_SITE_URL);
  if (!siteUrl) throw new ConfigError('SITE_URL must be an absolute http(s) URL');
  cached = { APP_ENV: appEnv, SITE_URL: siteUrl };
  return cached;
}

export function resetAppSettings(): void {
  cached = null;
}

/** Development and test: local fallbacks (outbox, dev secrets) are allowed. */
export function isLocalMode(): boolean {
  return appSettings().APP_ENV !== 'production';
}
