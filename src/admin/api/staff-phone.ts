import useSWR, { useSWRConfig } from 'swr';
import { useCallback } from 'react';
import { queryFetcher } from '../../lib/client/api.ts';
import type { StaffPhoneStatus } from '../../lib/schemas/staff-phone.ts';
import { send } from './shared.ts';

/**
 * The signed-in member's own phone for test texts (docs/decisions/152-broadcasts.md): its masked
 * status (Security and the broadcast composer read the same key), a code texted to a number, the code back, removal.
 */
export const OWN_PHONE = '/api/auth/phone';

export function useOwnPhone() {
  return useSWR<StaffPhoneStatus, Error>(OWN_PHONE, queryFetcher);
}

/** Each write answers the new status, which replaces the cached one (the composer shows it at once). */
export function useOwnPhoneActions() {
  const { mutate } = useSWRConfig();
  const apply = useCallback(
    async (request: Promise<StaffPhoneStatus>) => {
      const status = await request;
      await mutate(OWN_PHONE, status, { revalidate: false });
      return status;
    },
    [mutate],
  );
  return {
    sendCode: useCallback(
      (phone: string) => apply(send<StaffPhoneStatus>('POST', `${OWN_PHONE}/code`, { phone })),
      [apply],
    ),
    verify: useCallback(
      (code: string) => apply(send<StaffPhoneStatus>('POST', `${OWN_PHONE}/verify`, { code })),
      [apply],
    ),
    remove: useCallback(() => apply(send<StaffPhoneStatus>('DELETE', OWN_PHONE)), [apply]),
  };
}
