import { useCallback } from 'react';
import type { SocialLink, SocialLinkUpdate } from '../../lib/schemas/social.ts';
import { ADMIN_SOCIAL, send, useRevalidate, PUBLIC_SOCIAL } from './shared.ts';

export const updateSocialLink = (id: number, input: SocialLinkUpdate) =>
  send<{ link: SocialLink }>('PUT', `${ADMIN_SOCIAL}/${id}`, input);

export function useUpdateSocialLink() {
  const revalidate = useRevalidate();
  return useCallback(
    async (id: number, input: SocialLinkUpdate) => {
      const { link } = await updateSocialLink(id, input);
      await revalidate(ADMIN_SOCIAL, PUBLIC_SOCIAL);
      return link;
    },
    [revalidate],
  );
}
