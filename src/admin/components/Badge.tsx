import type { ReactNode } from 'react';
import type { Role } from '../../lib/schemas/permissions.ts';

export type BadgeVariant = 'default' | 'secondary' | 'destructive' | 'success' | 'outline' | 'warning';

export function Badge({ variant = 'default', children }: { variant?: BadgeVariant; children: ReactNode }) {
  return <span className={`badge badge--${variant}`}>{children}</span>;
}

/** Spec section 6: admin red, editor default, viewer secondary. */
export const ROLE_BADGE: Record<Role, BadgeVariant> = {
  admin: 'destructive',
  editor: 'default',
  viewer: 'secondary',
};

export function RoleBadge({ role }: { role: Role }) {
  return <Badge variant={ROLE_BADGE[role]}>{role[0]!.toUpperCase() + role.slice(1)}</Badge>;
}
