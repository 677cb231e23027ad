/**
 * What a live site needs before it may send a text (docs/decisions/085-launch-gate.md, "Texts need registration").
 * Since February 2026 US carriers deliver political texts (10DLC, toll-free and short code) only from a sender
 * registered with a Campaign Verify token: the campaign is vetted by Campaign Verify, registered with The Campaign
 * Registry (TCR) through Twilio as a Political campaign, and its number sits in the Twilio Messaging Service that
 * registration is attached to. So production texts only through that Messaging Service
 * (TWILIO_MESSAGING_SERVICE_SID; a bare TWILIO_FROM_NUMBER is for local tests against a Twilio test account) and
 * only once CAMPAIGN_VERIFY_TOKEN records the token the registration used.
 *
 * Pure: the SMS adapter (src/lib/server/adapters/sms.ts) refuses to send in production while this lists anything,
 * and the launch check (src/lib/server/launch-check.ts) prints the same lines, so the two cannot disagree.
 */

/** A Twilio Account SID: "AC" and 32 hex digits. */
export const TWILIO_ACCOUNT_SID_SHAPE = /^AC[0-9a-f]{32}$/i;
/** A Twilio Messaging Service SID: "MG" and 32 hex digits. */
export const MESSAGING_SERVICE_SID_SHAPE = /^MG[0-9a-f]{32}$/i;
/** A Twilio auth token: 32 hex digits. */
export const TWILIO_AUTH_TOKEN_SHAPE = /^[0-9a-f]{32}$/i;
/**
 * A Campaign Verify token as issued: six pipe-delimited fields, none empty (Twilio error 21722: "Campaign Verify CV
 * tokens use 6 pipe-delimited fields"), e.g. `cv|1.0|tcr|10dlc|<id>|<signature>`.
 */
export const CAMPAIGN_VERIFY_TOKEN_FIELDS = 6;

export function campaignVerifyTokenShaped(value: string): boolean {
  const fields = value.trim().split('|');
  return fields.length === CAMPAIGN_VERIFY_TOKEN_FIELDS && fields.every((f) => /^[^\s|]+$/.test(f));
}

export type TextSettingName =
  'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN' | 'TWILIO_MESSAGING_SERVICE_SID' | 'CAMPAIGN_VERIFY_TOKEN';

/** One thing that keeps production from texting: the setting and a sentence that says how to fix it (never its value). */
export interface TextSettingProblem {
  name: TextSettingName;
  message: string;
}

type Env = Readonly<Partial<Record<TextSettingName, string | undefined>>>;

/** The one judge of each texting setting (null: fine). The launch check's lines for these settings are these. */
export const TEXT_SETTING_CHECKS: Readonly<
  Record<TextSettingName, (value: string | undefined) => string | null>
> = {
  TWILIO_ACCOUNT_SID: (v) =>
    !v
      ? 'TWILIO_ACCOUNT_SID is not set: the Twilio account that sends the texts.'
      : TWILIO_ACCOUNT_SID_SHAPE.test(v)
        ? null
        : 'TWILIO_ACCOUNT_SID is not a Twilio Account SID ("AC" and 32 hex digits, from the Twilio console).',
  TWILIO_AUTH_TOKEN: (v) =>
    !v
      ? 'TWILIO_AUTH_TOKEN is not set: the Twilio auth token (it also checks inbound webhooks).'
      : TWILIO_AUTH_TOKEN_SHAPE.test(v)
        ? null
        : 'TWILIO_AUTH_TOKEN is not a Twilio auth token (32 hex digits, from the Twilio console).',
  TWILIO_MESSAGING_SERVICE_SID: (v) =>
    !v
      ? 'TWILIO_MESSAGING_SERVICE_SID is not set: texts go out only through the Messaging Service that holds the campaign’s registered 10DLC number (docs/deploy.md, section 5).'
      : MESSAGING_SERVICE_SID_SHAPE.test(v)
        ? null
        : 'TWILIO_MESSAGING_SERVICE_SID is not a Messaging Service SID ("MG" and 32 hex digits).',
  CAMPAIGN_VERIFY_TOKEN: (v) =>
    !v
      ? 'CAMPAIGN_VERIFY_TOKEN is not set: carriers deliver political texts only from a campaign registered with a Campaign Verify token (since February 2026); text sending stays off until it is set (docs/deploy.md, section 5).'
      : campaignVerifyTokenShaped(v)
        ? null
        : `CAMPAIGN_VERIFY_TOKEN is not a whole Campaign Verify token (${CAMPAIGN_VERIFY_TOKEN_FIELDS} fields separated by "|", exactly as Campaign Verify issued it).`,
};

/** Everything that keeps a live site from texting, in the order to fix it; empty when texts may go out. */
export function textSettingProblems(env: Env): TextSettingProblem[] {
  return (Object.keys(TEXT_SETTING_CHECKS) as TextSettingName[]).flatMap((name) => {
    const message = TEXT_SETTING_CHECKS[name](env[name]);
    return message ? [{ name, message }] : [];
  });
}
