import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { importZones, schemaZone, serverZone } from '../../eslint.config.js';

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
