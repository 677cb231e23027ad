import { apiRequest } from '../../lib/client/api.ts';

export interface ForgotPasswordResponse {
  success: boolean;
  message?: string;
  error?: string;
}

/** POST /api/auth/forgot-password: the same answer whether or not the account exists. */
export const requestTemporaryPassword = (email: string) =>
  apiRequest<ForgotPasswordResponse>('POST', '/api/auth/forgot-password', { email });
