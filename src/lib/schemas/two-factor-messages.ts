/** Two-factor sign-in messages shared by the forms and the endpoints. zod-free (the dashboard imports it). */
export const TWO_FACTOR_MESSAGES = {
  codeFormat: 'Enter the 6-digit code from your authenticator app',
  invalidCode: 'That code is not valid. Check your authenticator app and try again.',
  expired: 'Your sign-in has expired. Please sign in again.',
  setupRequired: 'Your campaign requires two-factor sign-in. Please set it up to continue.',
  requiredCannotDisable:
    'Your campaign requires two-factor sign-in for your account, so it cannot be turned off.',
  alreadyOff: 'Two-factor sign-in is off',
  ownResetRefused:
    'You cannot reset your own second factor here. Use Security to turn it off or to get new recovery codes.',
} as const;
