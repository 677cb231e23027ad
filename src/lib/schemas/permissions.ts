import { z } from './zod.ts';

export const ROLES = ['viewer', 'editor', 'admin'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** Permission table of spec section 6. Any other name: admin only. */
const PERMISSIONS: Record<string, readonly Role[]> = {
  view_admin: ['admin', 'editor', 'viewer'],
  edit_metrics: ['admin', 'editor'],
  manage_users: ['admin'],
  view_analytics: ['admin', 'editor', 'viewer'],
  /** Broadcasts (docs/decisions/152-broadcasts.md): editors draft, count and test-send them; admins send. */
  draft_broadcasts: ['admin', 'editor'],
  send_broadcasts: ['admin'],
};

export type Permission =
  | 'view_admin'
  | 'edit_metrics'
  | 'manage_users'
  | 'view_analytics'
  | 'draft_broadcasts'
  | 'send_broadcasts'
  | 'admin'
  /** The audit trail (docs/decisions/154-audit-trail.md): not in the table above, so admin only. */
  | 'view_audit';

/** Admin passes every role check; others only their own; no user fails every check. */
export function hasRole(user: { role: Role } | null | undefined, role: Role): boolean {
  if (!user) return false;
  return user.role === 'admin' || user.role === role;
}

export function hasPermission(user: { role: Role } | null | undefined, permission: string): boolean {
  if (!user) return false;
  const allowed = Object.hasOwn(PERMISSIONS, permission) ? PERMISSIONS[permission] : undefined;
  if (!allowed) return user.role === 'admin';
  return allowed.includes(user.role);
}

/**
 * Content editing (articles, events, social links, uploads, inbox): editors and
 * admins. The spec names no permission for it; this is the server's rule and
 * the dashboard hides edit controls for viewers to match.
 */
export function canEditContent(user: { role: Role } | null | undefined): boolean {
  return hasPermission(user, 'edit_metrics');
}
