import type { Context } from '@netlify/functions';
import type { z } from 'zod';
import { requireUser, type RequireOptions } from '../auth/session.ts';
import type { StoredUser } from '../auth/users.ts';
import { audit, type AuditTarget } from '../audit/audit.ts';
import type { AuditKind } from '../../schemas/audit.ts';
import { allowMethods, handle, idFrom, json, readJson } from '../http.ts';
import { pageResponse } from '../pagination.ts';
import { purgeTags, type CacheTag } from './responses.ts';

/**
 * The staff endpoint of a fixed set of records (metrics, volunteer goals,
 * milestones, social links): no create or delete, so GET lists them (any
 * staff member) and PUT /:id updates one (with `permission`), then purges the
 * public list that shows them.
 */
export interface FixedRecords<S extends z.ZodType, T> {
  /** Name of the list in a page (`metrics`) and of one record in an update answer (`metric`). */
  names: { list: string; one: string };
  list: () => Promise<T[]>;
  schema: S;
  update: (id: number, input: z.output<S>, user: StoredUser) => Promise<T>;
  permission: NonNullable<RequireOptions['permission']>;
  tag: CacheTag;
  /** The audit trail entry of an update (docs/decisions/154-audit-trail.md: every staff edit is recorded). */
  audit: { kind: AuditKind; target: (record: T) => AuditTarget };
}

export function fixedRecordsHandler<S extends z.ZodType, T>(
  spec: FixedRecords<S, T>,
): (req: Request, context: Context) => Promise<Response> {
  return handle(async (req, context) => {
    const hasId = context.params?.id !== undefined;
    allowMethods(req, hasId ? 'PUT' : 'GET');
    if (req.method === 'GET') {
      await requireUser(req);
      return pageResponse(spec.names.list, await spec.list(), req);
    }
    const user = await requireUser(req, { permission: spec.permission });
    const record = await spec.update(idFrom(context), await readJson(req, spec.schema), user);
    await audit(context, user, spec.audit.kind, spec.audit.target(record));
    await purgeTags(spec.tag);
    return json({ [spec.names.one]: record });
  });
}
