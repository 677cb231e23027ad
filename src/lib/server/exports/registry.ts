import { isInboxKind } from '../../inbox-routes.ts';
import { isLang, LANGS } from '../../lang.ts';
import type { AuditKind } from '../../schemas/audit-kinds.ts';
import type { AuditTarget } from '../audit/audit.ts';
import type { RequireOptions } from '../auth/session.ts';
import { HttpError } from '../errors.ts';
import { inboxExportSource } from '../forms/inbox.ts';
import type { ExportSource } from './source.ts';

/**
 * Every staff export by name (docs/decisions/101-exports-of-any-size.md): who may start it,
 * its parameters, its source and the audit entry that records it. The export mechanism
 * (exports.ts) needs nothing else, so another list's CSV (Activity, attendees, donations)
 * joins by adding an entry here whose `open` returns its ExportSource.
 */
export interface ExportKind {
  /** Who may start it, see its progress and download it (its owner only). */
  permission: NonNullable<RequireOptions['permission']>;
  /** The parameters, checked (400 on anything else) and normalised; kept on the job. */
  params(raw: Record<string, string>): Record<string, string>;
  /** The rows, as of `now`. */
  open(params: Record<string, string>, now: Date): Promise<ExportSource>;
  /** The audit entry of the export (every export of staff data is audited). */
  audit(params: Record<string, string>): {
    kind: AuditKind;
    target: AuditTarget;
    details: Record<string, string>;
  };
}

/** The Inbox lists: `kind` (volunteers, contacts, text-signups, email-subscribers), `q` and `lang`, as the list shows. */
const inbox: ExportKind = {
  permission: 'edit_content',
  params(raw) {
    const { kind, q = '', lang = '', ...rest } = raw;
    if (Object.keys(rest).length) throw new HttpError(400, `Unknown parameter: ${Object.keys(rest)[0]}`);
    if (!kind || !isInboxKind(kind)) throw new HttpError(400, 'Unknown Inbox list');
    if (lang && !isLang(lang)) throw new HttpError(400, `lang must be one of ${LANGS.join(', ')}`);
    return { kind, q: q.trim().slice(0, 200), ...(lang ? { lang } : {}) };
  },
  open(params, now) {
    const kind = params.kind!;
    if (!isInboxKind(kind)) throw new HttpError(400, 'Unknown Inbox list');
    return inboxExportSource(
      kind,
      { q: params.q ?? '', ...(isLang(params.lang) ? { lang: params.lang } : {}) },
      now,
    );
  },
  audit(params) {
    const details: Record<string, string> = {};
    if (params.q) details.search = params.q;
    if (params.lang) details.lang = params.lang;
    return {
      kind: 'inbox.export',
      target: { type: 'inbox', id: params.kind!, label: params.kind! },
      details,
    };
  },
};

export const EXPORT_KINDS: Record<string, ExportKind> = { inbox };

export function exportKind(name: string): ExportKind {
  const kind = Object.hasOwn(EXPORT_KINDS, name) ? EXPORT_KINDS[name] : undefined;
  if (!kind) throw new HttpError(400, 'Unknown export');
  return kind;
}
