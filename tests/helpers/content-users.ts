import { signedIn } from './users.ts';

export type Who = 'anonymous' | 'viewer' | 'editor' | 'admin' | 'inactive';

/**
 * One signed-in user per role (through the real login handler) plus an admin
 * deactivated after signing in, as cookies ("name=value") for call().
 * Created one at a time: the local Blobs server's id counter is not atomic.
 */
export async function makeUsers(): Promise<Record<Who, string | undefined>> {
  const viewer = (await signedIn('viewer')).cookie;
  const editor = (await signedIn('editor')).cookie;
  const admin = (await signedIn('admin')).cookie;
  const inactive = (await signedIn('admin', { isActive: false })).cookie;
  return { anonymous: undefined, viewer, editor, admin, inactive };
}
