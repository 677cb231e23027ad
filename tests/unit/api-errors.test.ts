import { describe, expect, it } from 'vitest';
import { failureDescription } from '../../src/admin/forms/errors.ts';
import { ApiError, errorMessageOf } from '../../src/lib/client/api.ts';

/** Staff toasts read the server's message; the thrown error keeps spec section 8's "<status>: <body>". */
describe('error messages for people', () => {
  const invalid = new ApiError(401, '{"error":"Invalid credentials"}', 'Unauthorized');

  it('the thrown error keeps the status, a colon and the body', () => {
    expect(invalid.message).toBe('401: {"error":"Invalid credentials"}');
    expect(new ApiError(502, '', 'Bad Gateway').message).toBe('502: Bad Gateway');
  });

  it("a toast shows the server's error field, not the raw JSON", () => {
    expect(errorMessageOf(invalid, 'Invalid credentials')).toBe('Invalid credentials');
    const code = new ApiError(401, '{"error":"That code is not valid. Try the next one."}', 'Unauthorized');
    expect(errorMessageOf(code, 'Invalid credentials')).toBe('That code is not valid. Try the next one.');
    expect(failureDescription(invalid, 'fallback')).toBe('Invalid credentials');
  });

  it('a body that is not JSON is shown as the error message; no answer at all gives the fallback', () => {
    expect(errorMessageOf(new ApiError(503, 'Service Unavailable', ''), 'x')).toBe(
      '503: Service Unavailable',
    );
    expect(errorMessageOf(new ApiError(500, '{"other":1}', ''), 'x')).toBe('500: {"other":1}');
    expect(errorMessageOf(new TypeError('Failed to fetch'), 'Invalid credentials')).toBe(
      'Invalid credentials',
    );
  });
});
