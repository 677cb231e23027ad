/** The MDN HTTP Observatory's CSP test (plain JavaScript in the package; only what the validators test uses). */
declare module '@mdn/mdn-http-observatory/src/analyzer/tests/csp.js' {
  export function contentSecurityPolicyTest(requests: {
    responses: { auto: { headers: Record<string, string>; httpEquiv: Map<string, string[]> } };
    session: { url: URL };
  }): { result: string };
}
/** pa11y ships no types; only the call the bench makes. */
declare module 'pa11y' {
  export default function pa11y(url: string, options: Record<string, unknown>): Promise<unknown>;
}
