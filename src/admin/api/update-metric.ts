import { useCallback } from 'react';
import type { Metric, MetricUpdate } from '../../lib/schemas/progress.ts';
import { ADMIN_METRICS, send, useRevalidate, PUBLIC_PROGRESS } from './shared.ts';

export const updateMetric = (id: number, input: MetricUpdate) =>
  send<{ metric: Metric }>('PUT', `${ADMIN_METRICS}/${id}`, input);

export function useUpdateMetric() {
  const revalidate = useRevalidate();
  return useCallback(
    async (id: number, input: MetricUpdate) => {
      const { metric } = await updateMetric(id, input);
      await revalidate(ADMIN_METRICS, PUBLIC_PROGRESS);
      return metric;
    },
    [revalidate],
  );
}
