// @ts-check
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Browser code takes zod from src/lib/schemas/zod.ts, which turns off zod's eval probe (CSP). */
const ZOD_FROM_SCHEMAS = {
  name: 'zod',
  message: "Import { z } from src/lib/schemas/zod.ts: it configures zod for the browser's CSP (no eval).",
};

/**
 * Import zones (STYLE.md "Layout"): browser code never imports server-only code.
 * Exported so tests/unit/import-zones.test.ts can check that the rule fires.
 * @type {import('eslint').Linter.Config}
 */
export const importZones = {
  files: ['src/islands/**', 'src/admin/**', 'src/lib/client/**'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: [ZOD_FROM_SCHEMAS],
        patterns: [
          {
            regex: '(^|/)lib/server(/|$)',
            message:
              'src/lib/server is server-only: browser code (islands, admin, lib/client) must not import it. Share types and schemas through src/lib/schemas.',
          },
        ],
      },
    ],
  },
};

/**
 * Imports flow one way (STYLE.md "Layout"): schemas <- server <- functions; schemas <- client <- islands/admin;
 * content <- pages. Schemas import only zod, each other and the neutral modules in src/lib (lang, fingerprint,
 * campaign-time): never campaign copy, server or browser code. Exported for tests/unit/import-zones.test.ts.
 * @type {import('eslint').Linter.Config}
 */
export const schemaZone = {
  files: ['src/lib/schemas/**'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: [ZOD_FROM_SCHEMAS],
        patterns: [
          {
            regex: '(^|/)(content|server|client|islands|admin|components|pages|layouts)(/|$)',
            message:
              'src/lib/schemas imports only zod, other schemas and neutral src/lib modules: move labels and defaults to src/content and pass them in where they are used.',
          },
        ],
      },
    ],
  },
};

/** Browser code, as server code may never import it. */
const BROWSER_CODE = {
  regex: '(^|/)(client|islands|admin)(/|$)',
  message:
    'Server code must not import browser code (src/lib/client, islands, admin): share it through a neutral src/lib module.',
};

/**
 * Server code (src/lib/server, the functions) never imports browser code: shared helpers live in a neutral
 * src/lib module (for example src/lib/campaign-time.ts). The domains of src/lib/server never import a handler
 * (netlify/functions): handlers sit on top. Exported for tests/unit/import-zones.test.ts.
 * @type {import('eslint').Linter.Config}
 */
export const serverZone = {
  files: ['src/lib/server/**', 'netlify/functions/**'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          BROWSER_CODE,
          {
            regex: '^(\\.\\./)+netlify/functions(/|$)',
            message:
              'src/lib/server must not import a handler (netlify/functions): handlers import the domains, never the reverse.',
          },
        ],
      },
    ],
  },
};

/**
 * Handlers (netlify/functions) call the domains of src/lib/server, never the storage engine beneath them:
 * a handler that needs a store reaches it through its domain. Exported for tests/unit/import-zones.test.ts.
 * @type {import('eslint').Linter.Config}
 */
export const handlerZone = {
  files: ['netlify/functions/**'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          BROWSER_CODE,
          {
            regex: '(^|/)lib/server/storage(/|$)',
            message:
              'Handlers import the domains of src/lib/server, not the storage engine (src/lib/server/storage): call the domain module that owns the store.',
          },
        ],
      },
    ],
  },
};

/**
 * The neutral modules of src/lib/server that the storage engine may import besides itself and src/lib/schemas:
 * the environment, the time budgets and the HTTP-shaped errors. None of them imports anything of src/lib/server.
 */
export const STORAGE_NEUTRAL_MODULES = ['app-env', 'time-budgets', 'errors'];

/**
 * The floors of the server (README "Project layout", docs/decisions/071-imports-flow-one-way.md): the storage engine
 * (src/lib/server/storage) is the bottom floor. It imports only itself, src/lib/schemas and the neutral modules
 * above, so no domain folder (whatever its name: texting, inbox, people, ...), no content, no browser code and no
 * handler. Held as an allowlist: a relative import that climbs out of storage must land on a neutral module or in
 * src/lib/schemas. One config per folder depth inside storage (`../` means something else at each depth).
 * Exported for tests/unit/import-zones.test.ts.
 * @type {import('eslint').Linter.Config[]}
 */
export const storageZones = [0, 1, 2, 3].map((depth) => {
  const out = '\\.\\./'.repeat(depth + 1);
  const neutral = STORAGE_NEUTRAL_MODULES.join('|');
  return {
    files: [`src/lib/server/storage/${'*/'.repeat(depth)}*`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^${out}(?!(${neutral})\\.ts$|\\.\\./schemas/)`,
              message: `The storage engine (src/lib/server/storage) imports only itself, src/lib/schemas and the neutral modules (${STORAGE_NEUTRAL_MODULES.map((m) => `${m}.ts`).join(', ')}): never a domain folder, content, browser code or a handler. Pass what it needs in from the domain that calls it.`,
            },
            {
              regex: '^(\\.\\./)*(\\.|[^./][^/]*)/(.*/)?\\.\\.(/|$)',
              message: 'Write the import path of a storage module without a `..` after its start.',
            },
          ],
        },
      ],
    },
  };
});

export default defineConfig(
  {
    ignores: ['dist/', '.netlify/', '.astro/', 'node_modules/', 'coverage/', 'tests/.tmp/'],
  },
  js.configs.recommended,
  // Type-aware rules for TypeScript sources.
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    extends: [...tseslint.configs.recommendedTypeChecked, ...tseslint.configs.stylisticTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `x as T` after a guard is as clear as `x!`; leave the choice to the author.
      '@typescript-eslint/non-nullable-type-assertion-style': 'off',
      // `||` on strings is deliberate: an empty form field means "use the fallback".
      '@typescript-eslint/prefer-nullish-coalescing': ['error', { ignorePrimitives: { string: true } }],
    },
  },
  {
    files: ['tests/**', 'scripts/**'],
    rules: {
      // Silent loggers and no-op teardowns are normal in tests and scripts.
      '@typescript-eslint/no-empty-function': 'off',
    },
  },
  // Astro components (frontmatter and <script> are TypeScript).
  ...astro.configs.recommended,
  {
    files: ['**/*.astro'],
    rules: {
      // Astro's generated types resolve Props; keep the frontmatter checks cheap.
      'no-unused-vars': 'off',
    },
  },
  // Node config files written in JavaScript.
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
  },
  importZones,
  schemaZone,
  serverZone,
  handlerZone,
  ...storageZones,
  // zod.ts is where the other schema modules get zod from.
  { files: ['src/lib/schemas/zod.ts'], rules: { 'no-restricted-imports': 'off' } },
);
