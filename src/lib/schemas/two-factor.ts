import { z } from './zod.ts';

/** Two-factor sign-in (docs/decisions/160-staff-sign-in-and-sessions.md): what the forms send and the endpoints answer. */

import { TWO_FACTOR_MESSAGES } from './two-factor-messages.ts';

export { TWO_FACTOR_MESSAGES } from './two-factor-messages.ts';

const code = z
  .string({ error: TWO_FACTOR_MESSAGES.codeFormat })
  .trim()
  .transform((s) => s.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, TWO_FACTOR_MESSAGES.codeFormat));

const recoveryCode = z
  .string()
  .trim()
  .min(10, 'Enter one of your recovery codes')
  .max(40, 'Enter one of your recovery codes');

/** A current code or one recovery code: the second factor of a re-authentication (one of the two, or neither). */
export const secondFactorFields = { code: code.optional(), recoveryCode: recoveryCode.optional() };

/** The sign-in code step and turning two-factor off: a current code or one recovery code. */
export const SecondFactorSchema = z
  .strictObject({ code: code.optional(), recoveryCode: recoveryCode.optional() })
  .refine((v) => (v.code === undefined) !== (v.recoveryCode === undefined), {
    message: 'Enter a code from your authenticator app or one recovery code',
  });
export type SecondFactorInput = z.input<typeof SecondFactorSchema>;

const currentPassword = z.string().min(1, 'Enter your current password').max(1024);

/**
 * Confirming enrolment needs the current password (a stolen session cannot
 * tie the account to the thief's phone) and a first code from the app.
 * docs/decisions/160-staff-sign-in-and-sessions.md
 */
export const TwoFactorEnableSchema = z.strictObject({ password: currentPassword, code });

/** Turning it off, or new recovery codes: the current password and a code (or one recovery code). */
export const TwoFactorReauthSchema = z
  .strictObject({ password: currentPassword, ...secondFactorFields })
  .refine((v) => (v.code === undefined) !== (v.recoveryCode === undefined), {
    message: 'Enter a code from your authenticator app or one recovery code',
  });
export const TwoFactorDisableSchema = TwoFactorReauthSchema;
export type TwoFactorReauthInput = z.input<typeof TwoFactorReauthSchema>;

/** Who must use two-factor sign-in (admin setting). */
export const TwoFactorPolicySchema = z.strictObject({
  requireForAdmins: z.boolean(),
  /** Everyone: admins, editors and viewers. */
  requireForAllStaff: z.boolean(),
});
export type TwoFactorPolicy = z.infer<typeof TwoFactorPolicySchema>;

/** What GET /api/auth/me says about the signed-in user's second factor. */
export interface TwoFactorStatus {
  enabled: boolean;
  /** The campaign's policy requires it for this user. */
  required: boolean;
  recoveryCodesLeft: number;
}

/** POST /api/auth/two-factor/setup: the secret to show as a QR code and as text. */
export interface TwoFactorSetup {
  secret: string;
  otpauthUri: string;
}
