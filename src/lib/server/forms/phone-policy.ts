import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { ConfigError, env } from '../env.ts';
import { HttpError } from '../errors.ts';

/**
 * Phone numbers on the public forms are limited to the countries the campaign
 * texts (SMS_ALLOWED_COUNTRIES, default US), so nobody can make it pay for texts
 * to premium international ranges (issue 15, SMS pumping). The shared schema
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

/** 400 (with the field) unless `phone` is missing or in an allowed country. */
export function assertPhoneAllowed(phone: string | null | undefined, field = 'phone'): void {
  if (!phone) return;
  const allowed = allowedPhoneCountries();
  const country = phoneCountry(phone);
  if (country && allowed.includes(country)) return;
  const message = phoneCountryMessage(allowed);
  throw new HttpError(400, message, { fields: { [field]: message } });
}
