/**
 * Outside validators against the production build served like Netlify
 * (`npm run bench`): HTML_CodeSniffer through pa11y (WCAG2AA) on every public
 * page, and the MDN HTTP Observatory's CSP test on each page's real response
 * headers (and <meta> policy). The Nu Html Checker and the CSP of every
 * response type are also in `npm test` (tests/browser/validators.test.ts).
 */
import pa11y from 'pa11y';
import { contentSecurityPolicyTest } from '@mdn/mdn-http-observatory/src/analyzer/tests/csp.js';

const CHROME_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Pa11yIssue {
  type: string;
  code: string;
  message: string;
  selector: string;
}

export interface ValidatorRow {
  route: string;
  htmlcsErrors: Pa11yIssue[];
  csp: string;
}

async function cspVerdict(url: string): Promise<string> {
  const res = await fetch(url);
  const html = await res.text();
  const meta = [...html.matchAll(/<meta http-equiv="content-security-policy" content="([^"]*)"/gi)].map((m) =>
    m[1]!.replace(/&#39;/g, "'").replace(/&quot;/g, '"'),
  );
  return contentSecurityPolicyTest({
    responses: {
      auto: {
        headers: { 'content-security-policy': res.headers.get('content-security-policy') ?? '' },
        httpEquiv: new Map([['content-security-policy', meta]]),
      },
    },
    session: { url: new URL(url) },
  }).result;
}

export async function runValidators(base: string, routes: string[]): Promise<ValidatorRow[]> {
  const rows: ValidatorRow[] = [];
  for (const route of routes) {
    const url = new URL(route, base).href;
    const result = (await pa11y(url, {
      runners: ['htmlcs'],
      standard: 'WCAG2AA',
      timeout: 60_000,
      chromeLaunchConfig: { executablePath: '/usr/bin/chromium', args: CHROME_ARGS },
    })) as { issues: Pa11yIssue[] };
    rows.push({
      route,
      htmlcsErrors: result.issues.filter((i) => i.type === 'error'),
      csp: await cspVerdict(url),
    });
    console.error(`validators ${route} done`);
  }
  return rows;
}

export function validatorsMarkdown(rows: ValidatorRow[]): string {
  const ok = (r: ValidatorRow) => r.htmlcsErrors.length === 0;
  return [
    '## Validators',
    '',
    'HTML_CodeSniffer through pa11y (runner htmlcs, WCAG2AA, errors only) and the MDN HTTP Observatory\u2019s CSP test on',
    'each public page of the production build under `netlify serve`. The Nu Html Checker and every response type\u2019s CSP',
    'are checked by `npm test` as well (tests/browser/validators.test.ts).',
    '',
    '| Page | HTML_CodeSniffer errors | Observatory CSP verdict |',
    '|---|---:|---|',
    ...rows.map((r) => `| ${r.route} | ${r.htmlcsErrors.length}${ok(r) ? '' : ' ⚠'} | ${r.csp} |`),
    '',
    ...rows.flatMap((r) =>
      r.htmlcsErrors.map((i) => `- ${r.route}: ${i.code} ${i.message} (\`${i.selector}\`)`),
    ),
    '',
  ].join('\n');
}
