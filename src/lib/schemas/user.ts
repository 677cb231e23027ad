import { z } from './zod.ts';
import { email, password, text, requiredText } from './fields.ts';
import { RoleSchema } from './permissions.ts';
import { secondFactorFields } from './two-factor.ts';

export const username = z
  .string()
  .trim()
  .toLowerCase()
  .min(3, 'Username must be at least 3 characters')
  .max(40, 'Username must be at most 40 characters')
  .regex(/^[a-z0-9._-]+$/, 'Username may use letters, digits, dot, dash and underscore');

/** What the API returns for a user: never the hash or token material. */
export const PublicUserSchema = z.object({
  id: z.number().int().positive(),
  username: z.string(),
  email: z.string(),
  role: RoleSchema,
  firstName: z.string(),
  lastName: z.string(),
  isActive: z.boolean(),
  lastLogin: z.string().nullable(),
  createdAt: z.string(),
  /** True after signing in with a temporary password: the user must set a new one first. */
  mustChangePassword: z.boolean(),
});
export type PublicUser = z.infer<typeof PublicUserSchema>;

export const UserCreateSchema = z.strictObject({
  username,
  email,
  password,
  role: RoleSchema,
  firstName: text(80).default(''),
  lastName: text(80).default(''),
  isActive: z.boolean().default(true),
});
export type UserCreate = z.input<typeof UserCreateSchema>;

/** Update: password only when non-blank (the client omits a blank one; a blank one sent is ignored). */
export const UserUpdateSchema = z.strictObject({
  username: username.optional(),
  email: email.optional(),
  password: z
    .union([z.literal(''), password])
    .optional()
    .transform((v) => (v ? v : undefined)),
  role: RoleSchema.optional(),
  firstName: text(80).optional(),
  lastName: text(80).optional(),
  isActive: z.boolean().optional(),
});
export type UserUpdate = z.input<typeof UserUpdateSchema>;

/** Login payload: `username` accepts a username or an email. */
/** The answer to a sign-in whose name or password is wrong (the server's 401, the dashboard's fallback). */
export const INVALID_CREDENTIALS = 'Invalid credentials';

export const LoginSchema = z.strictObject({
  username: requiredText(254, 'Please fill in all fields'),
  password: z.string().min(1, 'Please fill in all fields').max(1024, INVALID_CREDENTIALS),
});
export type LoginInput = z.input<typeof LoginSchema>;

export const ForgotPasswordSchema = z.strictObject({ email });
export type ForgotPasswordInput = z.input<typeof ForgotPasswordSchema>;

export const ResetPasswordSchema = z.strictObject({
  token: z.string().min(16, 'This password reset link is invalid. Please request a new one.').max(200),
  password,
});
export type ResetPasswordInput = z.input<typeof ResetPasswordSchema>;

/**
 * Change own password. `currentPassword` is required except right after a
 * temporary-password sign-in (the session then proves it; the temporary password is already spent);
 * with two-factor on, so is a code or a recovery code (docs/decisions/160-staff-sign-in-and-sessions.md).
 */
export const ChangePasswordSchema = z
  .strictObject({
    currentPassword: z.string().max(1024).optional().default(''),
    newPassword: password,
    ...secondFactorFields,
  })
  .refine((v) => v.code === undefined || v.recoveryCode === undefined, {
    message: 'Enter a code from your authenticator app or one recovery code',
  });
export type ChangePasswordInput = z.input<typeof ChangePasswordSchema>;

/** Welcome line: first name, else username. */
export function displayName(user: Pick<PublicUser, 'firstName' | 'username'>): string {
  return user.firstName.trim() || user.username;
}
