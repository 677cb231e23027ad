import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { AuthProvider, useAuth } from '../../src/admin/auth/AuthProvider.tsx';
import { changePasswordProblem } from '../../src/admin/auth/ChangePasswordForm.tsx';
import { dashboardTabs } from '../../src/admin/Dashboard.tsx';
import { ROLE_BADGE } from '../../src/admin/components/Badge.tsx';
import { listKey } from '../../src/admin/api/shared.ts';
import { inboxExportParams } from '../../src/admin/api/get-inbox.ts';
import { DELETE_USER_CONFIRM } from '../../src/admin/tabs/UsersTab.tsx';
import type { PublicUser } from '../../src/lib/schemas/user.ts';
import type { Role } from '../../src/lib/schemas/permissions.ts';

const userWith = (role: Role): PublicUser => ({
  id: 1,
  username: role,
  email: `${role}@example.com`,
  role,
  firstName: '',
  lastName: '',
  isActive: true,
  lastLogin: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  mustChangePassword: false,
});

describe('useAuth', () => {
  function Probe() {
    useAuth();
    return null;
  }

  it('throws outside its provider', () => {
    expect(() => renderToString(createElement(Probe))).toThrow('useAuth must be used within an AuthProvider');
  });

  it('works inside its provider', () => {
    expect(() => renderToString(createElement(AuthProvider, null, createElement(Probe)))).not.toThrow();
  });
});

describe('dashboard tabs per role', () => {
  const labels = (role: Role) => dashboardTabs(userWith(role)).map((t) => t.label);

  it('admin sees every tab including User Management, Inbox, Broadcasts, Activity and Trash', () => {
    expect(labels('admin')).toEqual([
      'Blog Management',
      'Events Management',
      'Social Media',
      'User Management',
      'Overview',
      'Campaign Progress',
      'Inbox',
      'People',
      'Plans to vote',
      'Broadcasts',
      'Donations',
      'Outreach Links',
      'Activity',
      'Trash',
      'Election',
      'Security',
    ]);
  });

  it('editor sees the Trash and Broadcasts but no User Management or Activity', () => {
    expect(labels('editor')).toEqual([
      'Blog Management',
      'Events Management',
      'Social Media',
      'Overview',
      'Campaign Progress',
      'Inbox',
      'People',
      'Plans to vote',
      'Broadcasts',
      'Donations',
      'Outreach Links',
      'Trash',
      'Security',
    ]);
  });

  it('viewer sees neither User Management nor Inbox (nor Activity, Trash)', () => {
    expect(labels('viewer')).toEqual([
      'Blog Management',
      'Events Management',
      'Social Media',
      'Overview',
      'Campaign Progress',
      'People',
      'Donations',
      'Outreach Links',
      'Security',
    ]);
  });

  it('role badge colours: admin red, editor default, viewer secondary', () => {
    expect(ROLE_BADGE).toEqual({ admin: 'destructive', editor: 'default', viewer: 'secondary' });
  });
});

describe('change-password checks in order', () => {
  it('filled, then length, then match', () => {
    expect(changePasswordProblem('', 'abcdef', 'abcdef')).toBe('Please fill in all fields');
    expect(changePasswordProblem('tmp', 'abc', 'abc')).toBe('Password must be at least 6 characters');
    expect(changePasswordProblem('tmp', 'abcdef', 'abcdeg')).toBe('Passwords do not match');
    expect(changePasswordProblem('tmp', 'abcdef', 'abcdef')).toBeNull();
  });
});

describe('list keys', () => {
  it('build paged URLs and leave out empty filters', () => {
    expect(listKey('/api/admin/news', { page: 2, pageSize: 20 })).toBe('/api/admin/news?page=2&pageSize=20');
    expect(listKey('/api/admin/volunteers', { page: 1, q: '' })).toBe('/api/admin/volunteers?page=1');
    // The Inbox's export (docs/decisions/156-exports.md): what the list shows, empty filters left out.
    expect(inboxExportParams('contacts', ' ann ', '')).toEqual({ kind: 'contacts', q: 'ann' });
    expect(inboxExportParams('text-signups', '', 'es')).toEqual({ kind: 'text-signups', lang: 'es' });
  });

  it('user delete confirmation text is the spec text', () => {
    expect(DELETE_USER_CONFIRM).toBe(
      'Are you sure you want to delete this user? This action cannot be undone.',
    );
  });
});
