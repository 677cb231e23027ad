import { HttpError } from '../errors.ts';

/*
 * Staff passwords keep the spec's minimum (6 characters, its messages) and must also not be easy to guess:
 * a common or breached-pattern password (abc123, password123, qwerty12, the username with a digit) opens
 * the dashboard of a campaign to anyone who tries a short list. zxcvbn-ts estimates how many guesses a
 * password takes from dictionaries of leaked passwords, words and names, keyboard walks, sequences,
 * repeats and dates, and from the account's own words (username, email, names). Anything it scores
 * below 2 (fewer than about 10^6 guesses) is refused. docs/decisions/160-staff-sign-in-and-sessions.md.
 * The library and its dictionaries (about 2 MB) are loaded on first use, like argon2: only the
 * functions that set a password pay for them.
 */

/** The lowest zxcvbn score (0-4) a staff password may have. */
export const MIN_PASSWORD_SCORE = 2;

export const WEAK_PASSWORD =
  'This password is too easy to guess: it is common or follows a known pattern. Use a longer one, such as three or four unrelated words.';

type Check = (password: string, userInputs: string[]) => number;
let loading: Promise<Check> | undefined;

function checker(): Promise<Check> {
  return (loading ??= (async () => {
    const [{ ZxcvbnFactory }, common] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
    ]);
    const zxcvbn = new ZxcvbnFactory({
      dictionary: { ...common.dictionary },
      graphs: common.adjacencyGraphs,
    });
    return (password, userInputs) => zxcvbn.check(password, userInputs).score;
  })());
}

/** The account's own words, which a password must not lean on (the email's local part and domain, split). */
function accountWords(account: Partial<Record<'username' | 'email' | 'firstName' | 'lastName', string>>) {
  const words = [
    account.username,
    account.firstName,
    account.lastName,
    ...(account.email?.split(/[@.]/) ?? []),
  ];
  return words.filter((w): w is string => typeof w === 'string' && w.length >= 3).map((w) => w.toLowerCase());
}

/** Whether a password is strong enough for a staff account. */
export async function isStrongPassword(
  password: string,
  account: Partial<Record<'username' | 'email' | 'firstName' | 'lastName', string>> = {},
): Promise<boolean> {
  // zxcvbn's cost grows with length; past 100 characters a password is not guessable by any list.
  if (password.length > 100) return true;
  return (await checker())(password, accountWords(account)) >= MIN_PASSWORD_SCORE;
}

/** 400 with the field's message when a new staff password is too easy to guess. */
export async function assertStrongPassword(
  password: string,
  account: Partial<Record<'username' | 'email' | 'firstName' | 'lastName', string>>,
  field = 'password',
): Promise<void> {
  if (!(await isStrongPassword(password, account)))
    throw new HttpError(400, WEAK_PASSWORD, { fields: { [field]: WEAK_PASSWORD } });
}
