/**
 * Rewrites citations of decision records that were folded into a current record
 * (docs/decisions/README.md, "Current records and the archive").
 *
 *   npm run decisions:rewrite-citations          # rewrite in place, print what changed
 *   npm run decisions:rewrite-citations -- --check   # change nothing; exit 1 if anything would change
 *
 * Every citation `docs/decisions/NNN-old-name.md` in the scanned files becomes `docs/decisions/NNN-new-name.md` (its
 * current record); inside the current records (the files directly in docs/decisions, not the archive) a relative link
 * `](NNN-old-name.md)` becomes `](NNN-new-name.md)`. The archive keeps its
 * text: its own links are left as they are. Idempotent: an old name never appears in a new one, so a second run
 * changes nothing. The old names are written here without the folder prefix, so this file never rewrites itself.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as prettier from 'prettier';

/** Current record (file name without `.md`) -> the records folded into it. */
export const FOLDED: Readonly<Record<string, readonly string[]>> = {
  '071-imports-flow-one-way': ['007-lint-import-zones'],
  '150-rsvp': ['037-rsvp', '076-rsvp-cancel-links', '077-repeat-rsvp'],
  '151-texting': [
    '010-forms-consent-record-design-text-message',
    '038-text-sign-up-limits-sms-pumping',
    '039-text-sign-up-only-the-owner-undoes-a-stop',
    '080-text-guard',
    '092-text-signup-needs-a-phone',
    '115-quiet-hours-in-the-recipients-zone',
  ],
  '152-broadcasts': [
    '116-broadcast-texts-through-the-guard',
    '117-broadcast-delivery-engine',
    '118-broadcast-audiences',
    '121-broadcast-staff-actions',
    '122-segment-counting-and-the-50k-run',
    '123-broadcasts-tab',
    '130-filtered-audiences-from-the-inbox-index',
    '133-test-sends-only-to-the-sender',
  ],
  '153-storage': [
    '078-store-paths',
    '089-article-summaries-and-self-repairing-indexes',
    '106-rushes-that-refuse-no-one',
  ],
  '154-audit-trail': [
    '033-audit-trail',
    '073-audit-anchors',
    '105-audit-at-scale',
    '108-audit-full-verification-job',
  ],
  '155-inbox-and-staff-lists': [
    '014-forms-staff-inbox',
    '084-inbox-routes-and-function-names',
    '100-summary-indexes',
    '107-bounded-staff-lists',
    '128-search-by-text-columns',
    '136-one-suppression-state-shown-everywhere',
  ],
  '156-exports': ['101-exports-of-any-size', '127-every-staff-export-through-one-mechanism'],
  '157-election-calendar': [
    '087-election-calendar',
    '088-stage-rebuild',
    '112-site-csv-import',
    '113-post-election-modes',
    '114-walking-the-calendar',
    '125-election-calendar-form',
  ],
  '158-plan-to-vote': ['110-plan-to-vote', '111-plan-reminders'],
  '159-public-forms': [
    '011-forms-captcha-in-local-mode',
    '012-forms-duplicate-handling',
    '013-forms-email-after-store',
    '016-public-volunteer-sign-up-when-to-show-thank',
    '017-public-validation-toasts-need-novalidate',
    '046-control-characters',
    '048-public-forms-without-javascript',
    '049-public-form-kit-without-zod',
    '081-form-post-limits',
    '091-contact-field-errors',
    '093-volunteer-success-focus',
    '094-volunteer-zip',
    '137-limits-per-network',
  ],
  '160-staff-sign-in-and-sessions': [
    '026-admin-auth-state-in-a-nanostores-store-data',
    '034-two-factor-sign-in-totp',
    '041-lockout-reserve-then-verify',
    '042-one-password-one-set-of-live-credentials',
    '043-the-last-admin-rule-under-concurrency',
    '044-forgot-password-same-work-same-time',
    '045-session-secret-in-production',
    '074-reauthentication',
    '140-staff-password-strength',
  ],
  '161-content-and-editor': [
    '015-content-collections-articles-events-social',
    '030-editor-tiptap-3-built-from-one-allowlist',
    '031-preview-a-staff-only-on-demand-page',
    '032-revisions-and-trash',
    '040-public-projections-by-schema',
    '051-what-staff-edit-is-what-voters-see',
    '086-trash-for-editors',
    '148-article-category',
  ],
  '162-public-pages-and-performance': [
    '003-mobile-navigation-a-native-modal-dialog',
    '004-footer-social-icons-load-in-the-browser',
    '009-static-fallbacks-where-islands-will-mount',
    '018-public-home-page-javascript-budget',
    '025-production-build-fixes-found-by-serving',
    '019-public-carousel',
    '021-public-article-rss-sitemap-calendar',
    '022-public-analytics',
    '050-news-and-events-in-the-html',
    '058-first-paint-at-the-floor-every-pages-css',
    '059-campaign-images-built-by-astro-served',
    '060-caching-that-fits-the-files',
    '061-functions-that-start-fast',
    '064-the-first-screen-before-any-script',
    '065-one-type-scale-fewer-fonts-to-resolve',
    '066-site-icon-a-png-drawn-from-the-svg-at-build',
    '069-public-pages-without-react',
    '090-trailing-slash-redirects',
    '095-contact-lists-events',
    '097-home-first-screen-on-phones',
  ],
  '163-tests': [
    '005-browser-test-harness-one-build-one-seeded',
    '047-race-tests',
    '055-validator-findings',
    '070-tests-live-under-tests',
    '082-no-silent-passes',
    '083-every-page-checked',
    '104-browser-test-asserts-rows-and-logs-times',
    '129-test-schedule',
  ],
  '164-dev-server-and-local-mode': [
    '023-dev-server-functions-served-in-process',
    '024-local-mode-a-store-call-waits-rather-than',
    '029-dev-server-no-csp-header-in-astro-dev',
    '098-dev-port-and-site-url',
    '099-seed-rsvp-and-spanish-events',
    '131-local-blobs-listings',
    '142-scheduled-functions-in-development',
  ],
  '165-donations': [
    '020-public-donation-frame',
    '035-donations-actblue-webhook-minimal-records',
    '096-donate-by-check-address',
  ],
  '166-spanish': [
    '056-spanish-texts-forms-and-the-inbox',
    '057-spanish-versions-of-articles-and-events',
    '067-the-public-site-in-spanish',
    '068-events-rsvps-and-the-last-english-words',
  ],
  '167-email-and-newsletter': [
    '053-newsletter-box-keeps-the-address',
    '079-newsletter-double-opt-in',
    '119-email-guard-and-unsubscribe',
    '120-provider-feedback-webhooks',
  ],
  '168-benchmarks-and-scale': [
    '062-bench-the-floor-page-a-compressing-proxy',
    '063-lighthouse-in-the-bench-simulated-throttling',
    '102-scale-seed-bulk-path',
    '103-scale-bench',
  ],
  '170-campaign-copy-and-identity': [
    '001-campaign-copy-and-facts-live-in-typed-data',
    '002-placeholder-candidate-name-jordan-avery',
    '006-privacy-policy-content',
    '008-page-metadata-beyond-the-specs-nine-sets',
    '052-one-identity',
  ],
  '169-dashboard-ui': [
    '027-admin-server-paging-not-virtualisation',
    '028-admin-own-dialog-component-toasts-at-top',
    '054-one-toast-at-a-time-f8-everywhere',
    '141-unsaved-work-in-dialogs',
  ],
};

/** Old record file name (without `.md`) -> the current record that holds it now. */
export const CURRENT_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(FOLDED).flatMap(([current, olds]) => olds.map((old) => [old, current] as const)),
);

const SCANNED_DIRS = ['src', 'netlify', 'scripts', 'tests', 'docs', '.ci'];
const SCANNED_FILES = [
  'README.md',
  'astro.config.mjs',
  'eslint.config.js',
  'vitest.config.ts',
  'vitest.pages.config.ts',
  'netlify.toml',
  '.env.example',
  'package.json',
];
const TEXT = /\.(ts|tsx|mts|mjs|cjs|js|astro|md|css|toml|json|yml|yaml|html)$|^run$/;
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', '.astro', '.netlify']);

function files(root: string, dir: string): string[] {
  const path = join(root, dir);
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return TEXT.test(dir) || dir.startsWith('.') ? [path] : [];
  return readdirSync(path).flatMap((name) => {
    if (SKIPPED_DIRS.has(name) || name.startsWith('.tmp')) return [];
    const child = join(path, name);
    if (statSync(child).isDirectory()) return files(root, join(dir, name));
    return TEXT.test(name) ? [child] : [];
  });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const OLD_NAMES = [...CURRENT_OF.keys()].map(escape).join('|');
/** A full-path citation of a folded record (`docs/decisions/NNN-old-name.md`). */
const FULL = new RegExp(`docs/decisions/(${OLD_NAMES})\\.md`, 'g');
/** `](NNN-old-name.md` or `](./NNN-old-name.md`: a relative link inside docs/decisions. */
const RELATIVE = new RegExp(`\\]\\((?:\\./)?(${OLD_NAMES})\\.md`, 'g');

/** The same current record cited twice in a row (`a.md, a.md`, `a.md and a.md`). */
const TWICE = /(docs\/decisions\/(\d{3}-[a-z0-9-]+)\.md)(?:,| and|;) (?:and )?docs\/decisions\/\2\.md/g;

/** The text with every citation of a folded record pointing at its current record. */
export function rewrite(text: string, { relativeLinks }: { relativeLinks: boolean }): string {
  let out = text.replace(FULL, (_m, old: string) => `docs/decisions/${CURRENT_OF.get(old)!}.md`);
  if (relativeLinks) out = out.replace(RELATIVE, (_m, old: string) => `](${CURRENT_OF.get(old)!}.md`);
  // Two folded records cited side by side may now name the same current record: cite it once.
  if (out !== text) out = out.replace(TWICE, '$1');
  return out;
}

/** The text as Prettier formats it (a changed name can move a line past the print width), when Prettier handles it. */
async function formatted(path: string, text: string): Promise<string> {
  const info = await prettier.getFileInfo(path, { ignorePath: '.prettierignore' });
  if (info.ignored || !info.inferredParser) return text;
  const options = await prettier.resolveConfig(path);
  return prettier.format(text, { ...options, filepath: path });
}

export async function rewriteTree(root: string, { check = false } = {}): Promise<string[]> {
  const decisions = join(root, 'docs/decisions');
  const archive = join(decisions, 'archive');
  const scanned = [...SCANNED_DIRS, ...SCANNED_FILES].flatMap((d) => files(root, d));
  const changed: string[] = [];
  for (const path of new Set(scanned)) {
    if (path.startsWith(archive + '/')) continue;
    const text = readFileSync(path, 'utf8');
    const next = rewrite(text, { relativeLinks: path.startsWith(decisions + '/') });
    if (next === text) continue;
    changed.push(relative(root, path));
    if (!check) writeFileSync(path, await formatted(path, next));
  }
  return changed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  const changed = await rewriteTree(process.cwd(), { check });
  for (const path of changed) console.log(`${check ? 'would rewrite' : 'rewrote'} ${path}`);
  console.log(`${changed.length} file(s) ${check ? 'cite folded records' : 'rewritten'}`);
  if (check && changed.length > 0) process.exitCode = 1;
}
