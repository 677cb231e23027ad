import { parsePhoneNumberFromString, type CountryCode, type NumberType } from 'libphonenumber-js/min';
import { ConfigError, env } from '../env.ts';
import { HttpError } from '../errors.ts';

/**
 * Phone numbers on the public forms are limited to the countries the campaign
 * texts (SMS_ALLOWED_COUNTRIES, default US), so nobody can make it pay for texts
 * to premium international ranges (docs/decisions/151-texting.md, SMS pumping). The shared schema
 * has already normalised the number to E.164 and refused impossible ones;
 * this decides the country from the full numbering plan (libphonenumber
 * metadata), so +1 numbers in Canada or the Caribbean (+1 876, +1 809 ...) are
 * told apart from US ones. Keep Twilio's SMS geo permissions to the same list.
 */

const COUNTRY_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

/** The configured countries (ISO 3166-1 alpha-2). A malformed setting is a ConfigError (503). */
export function allowedPhoneCountries(): CountryCode[] {
  const raw = env().SMS_ALLOWED_COUNTRIES;
  const codes = raw
    .split(',')
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  if (codes.length === 0 || codes.some((c) => !/^[A-Z]{2}$/.test(c))) {
    throw new ConfigError(
      `SMS_ALLOWED_COUNTRIES must list ISO country codes such as "US" or "US,CA" (got "${raw}")`,
    );
  }
  return codes as CountryCode[];
}

/** The refusal, naming the countries as a person reads them: "Please enter a phone number from the US or Canada." */
export function phoneCountryMessage(countries: readonly string[] = allowedPhoneCountries()): string {
  const names = countries.map((c) => (c === 'US' ? 'the US' : (COUNTRY_NAMES.of(c) ?? c)));
  const list =
    names.length <= 1 ? (names[0] ?? 'the US') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  return `Please enter a phone number from ${list}.`;
}

/** The country of an E.164 number, or null when the numbering plan does not place it. */
export function phoneCountry(e164: string): CountryCode | null {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed?.country || !parsed.isValid()) return null;
  return parsed.country;
}

/**
 * Number types the campaign texts. Everything else is refused: premium rate
 * (+1 900), shared cost, UAN, personal numbers (+1 500/533/544/...), voicemail
 * and pager numbers are where SMS pumping earns its money, and a number whose
 * type the metadata cannot tell is refused too (fail closed). The project loads
 * libphonenumber-js's *min* metadata: it keeps the type patterns of every
 * country that has its own (US, CA, GB ...), and `getType()` answers from them;
 * only the smaller members of a shared calling code (Jamaica, Puerto Rico in +1)
 * answer undefined, and those are refused by country first.
 * tests/unit/phone-policy.test.ts holds the metadata to that.
 * See docs/decisions/151-texting.md.
 */
export const TEXTABLE_TYPES: ReadonlySet<NumberType> = new Set<NumberType>([
  'MOBILE',
  'FIXED_LINE',
  'FIXED_LINE_OR_MOBILE',
  'TOLL_FREE',
  'VOIP',
]);

/**
 * North American special ranges refused whatever the metadata says of them:
 * area codes 900 (premium), 976 (never an area code: pay-per-call), 700
 * (carrier services), 710 (federal government) and the personal-communication
 * codes 500, 52x, 533, 544, 566, 577, 588; and the 976 exchange in any area
 * code (the old local pay-per-call lines, which the metadata calls fixed line
 * or mobile).
 */
const NANP_SPECIAL = /^\+1(?:900|976|700|710|5(?:00|2\d|33|44|66|77|88))\d{7}$|^\+1\d{3}976\d{4}$/;

/** Whether an E.164 number is of a type the campaign texts (see TEXTABLE_TYPES, NANP_SPECIAL). */
export function phoneTypeAllowed(e164: string): boolean {
  if (NANP_SPECIAL.test(e164)) return false;
  const type = parsePhoneNumberFromString(e164)?.getType();
  return type !== undefined && TEXTABLE_TYPES.has(type);
}

/** The refusal of a number of a type the campaign does not text. */
export const PHONE_TYPE_MESSAGE =
  'Please enter a mobile or home phone number (not a premium-rate or special-service number).';

/** Why a number may not be texted (the message a form shows), or null when it may. */
export function phoneRefusal(phone: string): string | null {
  const allowed = allowedPhoneCountries();
  const country = phoneCountry(phone);
  if (!country || !allowed.includes(country)) return phoneCountryMessage(allowed);
  if (!phoneTypeAllowed(phone)) return PHONE_TYPE_MESSAGE;
  return null;
}

/**
 * 400 (with the field) unless `phone` is missing, in an allowed country and of
 * a textable type. Every form that takes a phone (text sign-up, RSVP,
 * volunteer, contact) calls it, so each refuses a number with the same message.
 */
export function assertPhoneAllowed(phone: string | null | undefined, field = 'phone'): void {
  if (!phone) return;
  const message = phoneRefusal(phone);
  if (message === null) return;
  throw new HttpError(400, message, { fields: { [field]: message } });
}
