import { z } from 'zod';

/**
 * zod as the shared schemas use it. In the browser the site's CSP forbids
 * eval; zod's JIT probes for it with `Function('')` when an object schema is
 * built, and the browser reports that as a CSP violation even though zod
 * catches the error. Jitless mode never probes. Every schema module imports z
 * from here (not from 'zod') so the setting is in place before any schema is
 * built. The server keeps the JIT.
 */
if (typeof window !== 'undefined') z.config({ jitless: true });

export { z };
