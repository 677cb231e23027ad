// @ts-check
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

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
);
