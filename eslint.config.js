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

/**
 * Server code (src/lib/server, the functions) never imports browser code: shared helpers live in a neutral
 * src/lib module (for example src/lib/campaign-time.ts). Exported for tests/unit/import-zones.test.ts.
 * @type {import('eslint').Linter.Config}
 */
export const serverZone = {
  files: ['src/lib/server/**', 'netlify/functions/**'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '(^|/)(client|islands|admin)(/|$)',
            message:
              'Server code must not import browser code (src/lib/client, islands, admin): share it through a neutral src/lib module.',
          },
        ],
      },
    ],
  },
};

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
  // zod.ts is where the other schema modules get zod from.
  { files: ['src/lib/schemas/zod.ts'], rules: { 'no-restricted-imports': 'off' } },
);
