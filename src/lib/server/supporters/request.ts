import type { Lang } from '../../lang.ts';
import { HttpError } from '../errors.ts';
import { readText, respond } from '../http.ts';

/**
 * The supporter page's posts (docs/decisions/182-supporter-page.md): JSON from a script, or a real form post
 * (urlencoded) from the page without JavaScript, which is answered with a 303 back to the page.
 */
export async function readMyInput(
  req: Request,
  maxBytes: number,
): Promise<{ input: Record<string, string | boolean | number>; formPost: boolean }> {
  const type = req.headers.get('content-type') ?? '';
  const text = await readText(req, maxBytes);
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return { input: Object.fromEntries(new URLSearchParams(text)), formPost: true };
  }
  if (!text) return { input: {}, formPost: false };
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v))
      return { input: v as Record<string, string>, formPost: false };
  } catch {
    // answered below
  }
  throw new HttpError(400, 'The request body must be a JSON object');
}

/** A checkbox or a JSON boolean. */
export const checked = (v: unknown) => v === true || v === 'on' || v === 'true' || v === 'yes';

/** The page a form post goes back to, with what happened (a word from a fixed list, never an echo of input). */
export function myPage(lang: Lang, done: string, headers: Record<string, string> = {}): Response {
  const path = lang === 'es' ? '/es/my' : '/my';
  return respond(null, {
    status: 303,
    headers: { Location: `${path}?done=${encodeURIComponent(done)}`, ...headers },
  });
}
