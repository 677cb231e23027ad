import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { SocialLink } from '../../lib/schemas/social.ts';
import { ADMIN_SOCIAL } from './shared.ts';

export function useSocialLinks() {
  return useSWR<{ links: SocialLink[] }, Error>(ADMIN_SOCIAL, queryFetcher);
}
