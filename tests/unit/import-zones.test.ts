import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { handlerZone, importZones, schemaZone, serverZone, storageZones } from '../../eslint.config.js';

// Lints snippets with only the import-zone rule, so the check is fast and does not
// depend on the snippet type-checking.
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfigFile: true,
  overrideConfig: [
    { files: ['**/*.ts', '**/*.tsx', '**/*.mts'], languageOptions: { parser: tseslint.parser } },
    importZones,
    schemaZone,
    serverZone,
    handlerZone,
    ...storageZones,
  ],
});

async function restrictedImports(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result?.messages.filter((m) => m.ruleId === 'no-restricted-imports').length ?? -1;
}

describe('import zones', () => {
  const serverImport = "import { env } from '../lib/server/env';\nexport default env;\n";

  it.each(['src/islands/TextSignupForm.tsx', 'src/admin/App.tsx', 'src/lib/client/fetcher.ts'])(
    'forbids src/lib/server in %s',
    async (filePath) => {
      expect(await restrictedImports(filePath, serverImport)).toBe(1);
      expect(await restrictedImports(filePath, "import '../../lib/server';\n")).toBe(1);
    },
  );

  it('allows schemas in browser code and server code in functions', async () => {
    expect(
      await restrictedImports('src/islands/X.tsx', "import { z } from '../lib/schemas/content';\n"),
    ).toBe(0);
    expect(await restrictedImports('netlify/functions/news.mts', serverImport)).toBe(0);
  });
});

describe('imports flow one way', () => {
  it.each([
    ["import { IDENTITY } from '../../content/identity.ts';\n", 1],
    ["import { env } from '../server/env.ts';\n", 1],
    ["import { fetcher } from '../client/fetcher.ts';\n", 1],
    [
      "import { z } from './zod.ts';\nimport { LANGS } from '../lang.ts';\nimport { fingerprint } from '../fingerprint.ts';\n",
      0,
    ],
  ])('schemas: %s', async (code, count) => {
    expect(await restrictedImports('src/lib/schemas/event.ts', code)).toBe(count);
  });

  it.each(['src/lib/server/events/reminders.ts', 'netlify/functions/events.mts'])(
    'server code in %s imports no browser code',
    async (filePath) => {
      expect(await restrictedImports(filePath, "import { x } from '../../client/dates.ts';\n")).toBe(1);
      expect(await restrictedImports(filePath, "import { x } from '../../src/islands/Foo.tsx';\n")).toBe(1);
      expect(
        await restrictedImports(filePath, "import { CAMPAIGN_TIME_ZONE } from '../../campaign-time.ts';\n"),
      ).toBe(0);
    },
  );
});

describe('the floors of the server', () => {
  // A domain folder that does not exist yet is covered too: the storage rule is an allowlist.
  it.each([
    ['src/lib/server/storage/combiner.ts', "import { isSuppressed } from '../messaging/suppressions.ts';\n"],
    ['src/lib/server/storage/combiner.ts', "import { x } from '../people/people.ts';\n"],
    ['src/lib/server/storage/combiner.ts', "import { env } from '../env.ts';\n"],
    ['src/lib/server/storage/combiner.ts', "import { IDENTITY } from '../../../content/identity.ts';\n"],
    ['src/lib/server/storage/combiner.ts', "import { CAMPAIGN_TIME_ZONE } from '../../campaign-time.ts';\n"],
    [
      'src/lib/server/storage/combiner.ts',
      "import handler from '../../../../netlify/functions/events.mts';\n",
    ],
    ['src/lib/server/storage/combiner.ts', "import { x } from './../texting/guard.ts';\n"],
    ['src/lib/server/storage/summary-index/view.ts', "import { x } from '../../inbox/kinds.ts';\n"],
    ['src/lib/server/storage/summary-index/view.ts', "import { x } from '../../content/articles.ts';\n"],
    ['src/lib/server/storage/summary-index/view.ts', "import { x } from '../../../client/fetcher.ts';\n"],
  ])('storage file %s may not import: %s', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).toBe(1);
  });

  it.each([
    ['src/lib/server/storage/combiner.ts', "import { kv } from './stores.ts';\n"],
    ['src/lib/server/storage/combiner.ts', "import { isLocalMode } from '../app-env.ts';\n"],
    ['src/lib/server/storage/combiner.ts', "import { budgets } from '../time-budgets.ts';\n"],
    ['src/lib/server/storage/combiner.ts', "import { HttpError } from '../errors.ts';\n"],
    ['src/lib/server/storage/combiner.ts', "import { z } from '../../schemas/zod.ts';\n"],
    ['src/lib/server/storage/combiner.ts', "import { randomUUID } from 'node:crypto';\n"],
    ['src/lib/server/storage/summary-index/view.ts', "import { kv } from '../stores.ts';\n"],
    ['src/lib/server/storage/summary-index/view.ts', "import { HttpError } from '../../errors.ts';\n"],
    ['src/lib/server/storage/summary-index/view.ts', "import { Chunk } from './encoding.ts';\n"],
  ])('storage file %s may import: %s', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).toBe(0);
  });

  it.each(['src/lib/server/events/rsvp.ts', 'src/lib/server/texting/guard.ts', 'src/lib/server/http.ts'])(
    'the domain module %s imports storage, schemas and content, never a handler',
    async (filePath) => {
      const depth = filePath.split('/').length - 4;
      const up = '../'.repeat(depth);
      expect(
        await restrictedImports(
          filePath,
          `import { upsert } from '${up || './'}storage/compare-and-set.ts';\n` +
            `import { RsvpInputSchema } from '${up}../schemas/rsvp.ts';\n` +
            `import { IDENTITY } from '${up}../../content/identity.ts';\n`,
        ),
      ).toBe(0);
      expect(
        await restrictedImports(
          filePath,
          `import handler from '${up}../../../netlify/functions/events.mts';\n`,
        ),
      ).toBe(1);
    },
  );

  it('a handler imports domains, not the storage engine', async () => {
    const file = 'netlify/functions/events.mts';
    expect(
      await restrictedImports(file, "import { rsvp } from '../../src/lib/server/events/rsvp.ts';\n"),
    ).toBe(0);
    expect(
      await restrictedImports(file, "import { kv } from '../../src/lib/server/storage/stores.ts';\n"),
    ).toBe(1);
    expect(await restrictedImports(file, "import { x } from '../../src/lib/client/fetcher.ts';\n")).toBe(1);
  });
});
