import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as adminGoals from '../../netlify/functions/admin-volunteer-goals.mts';
import * as adminMetrics from '../../netlify/functions/admin-metrics.mts';
import * as adminMilestones from '../../netlify/functions/admin-milestones.mts';
import * as campaignMetrics from '../../netlify/functions/campaign-metrics.mts';
import type { Metric, Milestone, VolunteerGoal } from '../../src/lib/schemas/progress.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { makeUsers } from '../helpers/content-users.ts';
import { call } from '../helpers/http.ts';

let stop: () => Promise<void>;
let editor: string;
let viewer: string;

beforeAll(async () => {
  ({ stop } = await startBlobs());
  const users = await makeUsers();
  editor = users.editor!;
  viewer = users.viewer!;
});
afterAll(() => stop());

describe('metrics, volunteer goals, milestones', () => {
  it('the spec weekly goals exist from the start (15 recruits, 500 contacts, 3 events, 200 hours)', async () => {
    const res = await call(adminGoals, '/api/admin/volunteer-goals', { cookie: viewer });
    expect(res.status).toBe(200);
    const { goals } = (await res.json()) as { goals: VolunteerGoal[] };
    expect(goals.map((g) => g.targetCount)).toEqual([15, 500, 3, 200]);
    expect(goals.every((g) => /^\d{4}-\d{2}-\d{2}$/.test(g.deadline))).toBe(true);
  });

  it('PUT a metric: integers fall back to 0 (spec 5); public campaign-metrics reflects it with CDN headers', async () => {
    // An update before anyone listed them still finds the default record.
    const res = await call(adminMetrics, '/api/admin/metrics/2', {
      method: 'PUT',
      cookie: editor,
      json: {
        currentValue: '1234',
        targetValue: 'lots',
        label: 'Doors Knocked',
        sublabel: 'At the door',
        description: '',
        trend: '+5%',
        isPublic: true,
      },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const { metric } = (await res.json()) as { metric: Metric };
    expect(metric).toMatchObject({
      id: 2,
      currentValue: 1234,
      targetValue: 0,
      label: 'Doors Knocked',
      trend: '+5%',
    });
    const pub = await call(campaignMetrics, '/api/campaign-metrics');
    expect(pub.headers.get('netlify-cache-tag')).toBe('campaign-metrics');
    expect(pub.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const body = (await pub.json()) as { metrics: Metric[]; goals: VolunteerGoal[]; milestones: Milestone[] };
    expect(body.metrics.find((m) => m.id === 2)?.currentValue).toBe(1234);
    // Only what staff marked public (docs/decisions/161-content-and-editor.md): the other default metrics and the milestones start private.
    expect(body.metrics.map((m) => m.id)).toEqual([2]);
    expect(body.goals).toHaveLength(4);
    expect(body.milestones).toEqual([]);
    // Leaving isPublic out of an update keeps it.
    const again = await call(adminMetrics, '/api/admin/metrics/2', {
      method: 'PUT',
      cookie: editor,
      json: { currentValue: 1, targetValue: 2, label: 'Doors Knocked' },
    });
    expect(((await again.json()) as { metric: Metric }).metric.isPublic).toBe(true);
  });

  it('PUT a goal and a milestone (optional target)', async () => {
    const g = await call(adminGoals, '/api/admin/volunteer-goals/1', {
      method: 'PUT',
      cookie: editor,
      json: {
        currentCount: 7.8,
        targetCount: '15',
        deadline: '2026-05-03',
        description: 'New volunteer recruits',
        priority: 'high',
      },
    });
    expect(g.status).toBe(200);
    expect(((await g.json()) as { goal: VolunteerGoal }).goal).toMatchObject({
      currentCount: 7,
      targetCount: 15,
      deadline: '2026-05-03',
    });
    for (const [target, expected] of [
      ['', null],
      [undefined, null],
      ['40', 40],
      ['x', 0],
    ] as const) {
      const m = await call(adminMilestones, '/api/admin/milestones/2', {
        method: 'PUT',
        cookie: editor,
        json: {
          currentCount: '3',
          ...(target === undefined ? {} : { targetCount: target }),
          label: 'Town Halls Held',
          description: '',
        },
      });
      expect(m.status).toBe(200);
      expect(((await m.json()) as { milestone: Milestone }).milestone.targetCount).toBe(expected);
    }
  });

  it('validation, unknown fields, wrong method, oversize, unknown id', async () => {
    const badGoal = await call(adminGoals, '/api/admin/volunteer-goals/1', {
      method: 'PUT',
      cookie: editor,
      json: { currentCount: 1, targetCount: 2, deadline: 'Friday', description: 'x', priority: 'urgent' },
    });
    expect(badGoal.status).toBe(400);
    expect(((await badGoal.json()) as { error: string }).error).toBe('Use the format YYYY-MM-DD');
    const unknown = await call(adminMetrics, '/api/admin/metrics/1', {
      method: 'PUT',
      cookie: editor,
      json: { currentValue: 1, targetValue: 1, label: 'x', id: 1 },
    });
    expect(unknown.status).toBe(400);
    const big = await call(adminMetrics, '/api/admin/metrics/1', {
      method: 'PUT',
      cookie: editor,
      json: { currentValue: 1, targetValue: 1, label: 'x', description: 'y'.repeat(70 * 1024) },
    });
    expect(big.status).toBe(413);
    expect(
      (await call(adminMetrics, '/api/admin/metrics', { method: 'POST', cookie: editor, json: {} })).status,
    ).toBe(405);
    expect(
      (await call(adminMilestones, '/api/admin/milestones/1', { method: 'DELETE', cookie: editor })).status,
    ).toBe(405);
    expect((await call(campaignMetrics, '/api/campaign-metrics', { method: 'PUT', json: {} })).status).toBe(
      405,
    );
    expect(
      (
        await call(adminMetrics, '/api/admin/metrics/99', {
          method: 'PUT',
          cookie: editor,
          json: { currentValue: 1, targetValue: 1, label: 'x' },
        })
      ).status,
    ).toBe(404);
  });
});
