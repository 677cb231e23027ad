import { env, isLocalMode, ConfigError } from '../env.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';

/**
 * Starts a new build of the site (docs/decisions/157-election-calendar.md): a POST to the Netlify build hook in
 * BUILD_HOOK_URL. Unconfigured in local mode, nothing is built: the request is written to the Blobs outbox
 * (store "outbox", keys "build/...") and a log line says so. Unconfigured in production is a configuration error.
 */
export async function triggerBuild(reason: string, now = new Date()): Promise<{ via: 'hook' | 'outbox' }> {
  const { BUILD_HOOK_URL } = env();
  if (!BUILD_HOOK_URL) {
    if (!isLocalMode()) throw new ConfigError('BUILD_HOOK_URL is not set');
    await kv('outbox').put(key('build', now.toISOString().replace(/[^A-Za-z0-9._-]/g, '-')), {
      reason,
      at: now.toISOString(),
    });
    console.info(`[build-hook:outbox] ${reason} (local mode: no build hook; stored in the Blobs outbox)`);
    return { via: 'outbox' };
  }
  // The hook's title shows in the deploy list: say why this build started.
  const url = new URL(BUILD_HOOK_URL);
  url.searchParams.set('trigger_title', `Election stage: ${reason}`.slice(0, 200));
  const res = await fetch(url, { method: 'POST', signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`Build hook answered ${res.status}`);
  return { via: 'hook' };
}
