import { nonEmpty } from '../forms/errors.ts';
import { send } from './shared.ts';

export const IMAGE_UPLOAD_FAILED = 'Image upload failed. Please try again.';

interface UploadResponse {
  success: boolean;
  imageUrl?: string;
  error?: string;
}

/** POST /api/upload with the multipart field `image`; resolves the stored image's URL. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  const res = await send<UploadResponse>('POST', '/api/upload', form);
  if (!res?.success || !res.imageUrl) throw new Error(nonEmpty(res?.error) ?? IMAGE_UPLOAD_FAILED);
  return res.imageUrl;
}
