import { useEffect, useMemo, useState } from 'react';
import { pageMeta } from '../content/metadata.ts';
import { adminCopy } from '../content/pages.ts';
import { canEditContent, hasPermission } from '../lib/schemas/permissions.ts';
import { displayName, type PublicUser } from '../lib/schemas/user.ts';
import { useAuth } from './auth/AuthProvider.tsx';
import { AlertBanner } from './components/AlertBanner.tsx';
import { LaunchChecklist } from './components/LaunchChecklist.tsx';
import { OutcomePrompt } from './components/OutcomePrompt.tsx';
import type { LaunchItem } from '../lib/schemas/launch-check.ts';
import { RoleBadge } from './components/Badge.tsx';
import { Tabs, type TabItem } from './components/Tabs.tsx';
import { BlogTab } from './tabs/BlogTab.tsx';
import { BroadcastsTab } from './tabs/BroadcastsTab.tsx';
import { DonationsTab } from './tabs/DonationsTab.tsx';
import { ElectionTab } from './tabs/ElectionTab.tsx';
import { EventsTab } from './tabs/EventsTab.tsx';
import { InboxTab } from './tabs/InboxTab.tsx';
import { OverviewTab } from './tabs/OverviewTab.tsx';
import { PeopleTab } from './tabs/PeopleTab.tsx';
import { VotePlansTab } from './tabs/VotePlansTab.tsx';
import { LinksTab } from './tabs/LinksTab.tsx';
import { ProgressTab } from './tabs/ProgressTab.tsx';
import { SocialTab } from './tabs/SocialTab.tsx';
import { UsersTab } from './tabs/UsersTab.tsx';
import { ActivityTab } from './tabs/ActivityTab.tsx';
import { SecurityTab } from './tabs/SecurityTab.tsx';
import { TrashTab } from './tabs/TrashTab.tsx';

/** Spec section 2: the page title is set for the admin dashboard. */
export const DASHBOARD_TITLE = pageMeta.admin.title;

/** Which tabs a user sees (spec section 6, plus Progress and Inbox (docs/decisions/155-inbox-and-staff-lists.md), Donations and Outreach Links (docs/decisions/165-donations.md, 036-outreach-links-and-qr-codes.md), Activity, Trash and Security (docs/decisions/154-audit-trail.md, 032-revisions-and-trash.md, 034-two-factor-sign-in-totp.md)). */
export function dashboardTabs(user: PublicUser): TabItem[] {
  const canEdit = canEditContent(user);
  const tabs: TabItem[] = [
    { id: 'blog', label: 'Blog Management', render: () => <BlogTab canEdit={canEdit} /> },
    { id: 'events', label: 'Events Management', render: () => <EventsTab canEdit={canEdit} /> },
    { id: 'social', label: 'Social Media', render: () => <SocialTab canEdit={canEdit} /> },
  ];
  if (hasPermission(user, 'admin'))
    tabs.push({ id: 'users', label: 'User Management', render: () => <UsersTab currentUserId={user.id} /> });
  // The campaign at a glance, for every role (docs/decisions/180-overview.md): beside the spec's tabs, not before them.
  tabs.push({
    id: 'overview',
    label: 'Overview',
    render: () => <OverviewTab tabs={tabs.map((t) => t.id)} />,
  });
  tabs.push({
    id: 'progress',
    label: 'Campaign Progress',
    render: () => <ProgressTab canEdit={hasPermission(user, 'edit_metrics')} />,
  });
  if (canEdit) tabs.push({ id: 'inbox', label: 'Inbox', render: () => <InboxTab /> });
  // People, for every role; viewers see no contact details (docs/decisions/149-people.md).
  tabs.push({
    id: 'people',
    label: 'People',
    render: () => <PeopleTab canEdit={canEdit} isAdmin={hasPermission(user, 'admin')} />,
  });
  // Plans to vote: their own list beside the Inbox (docs/decisions/158-plan-to-vote.md).
  if (canEdit) tabs.push({ id: 'plans', label: 'Plans to vote', render: () => <VotePlansTab /> });
  // Broadcasts: editors draft, admins send (docs/decisions/152-broadcasts.md).
  if (hasPermission(user, 'draft_broadcasts'))
    tabs.push({
      id: 'broadcasts',
      label: 'Broadcasts',
      render: () => <BroadcastsTab canSend={hasPermission(user, 'send_broadcasts')} email={user.email} />,
    });
  // Every staff role reads the donations; admin and editor set the public goal.
  tabs.push({ id: 'donations', label: 'Donations', render: () => <DonationsTab canEdit={canEdit} /> });
  tabs.push({ id: 'links', label: 'Outreach Links', render: () => <LinksTab /> });
  // The audit trail is admin only; the Trash is for whoever may edit what is in it (editors and
  // admins: docs/decisions/161-content-and-editor.md); Security is everyone's own two-factor.
  if (hasPermission(user, 'view_audit'))
    tabs.push({ id: 'activity', label: 'Activity', render: () => <ActivityTab /> });
  if (canEdit) tabs.push({ id: 'trash', label: 'Trash', render: () => <TrashTab /> });
  // The election calendar and the post-election mode: admins (docs/decisions/157-election-calendar.md).
  if (hasPermission(user, 'admin'))
    tabs.push({ id: 'election', label: 'Election', render: () => <ElectionTab /> });
  tabs.push({
    id: 'security',
    label: 'Security',
    render: () => (
      <SecurityTab
        isAdmin={hasPermission(user, 'manage_users')}
        canTestSend={hasPermission(user, 'draft_broadcasts')}
      />
    ),
  });
  return tabs;
}

function initialTab(ids: string[]): string {
  // `#people/<id>` is a person's page inside the People tab.
  const fromHash = typeof location === 'undefined' ? '' : location.hash.slice(1).split('/')[0]!;
  return ids.includes(fromHash) ? fromHash : (ids[0] ?? 'blog');
}

export function Dashboard({
  user,
  launchContent = [],
}: {
  user: PublicUser;
  launchContent?: readonly LaunchItem[];
}) {
  const { logout } = useAuth();
  const tabs = useMemo(() => dashboardTabs(user), [user]);
  const [selected, setSelected] = useState(() => initialTab(tabs.map((t) => t.id)));
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    const previous = document.title;
    document.title = DASHBOARD_TITLE;
    return () => {
      document.title = previous;
    };
  }, []);

  // A link to a tab (`#security` from the broadcast composer) selects it.
  useEffect(() => {
    const onHash = () => {
      const id = location.hash.slice(1).split('/')[0]!;
      if (tabs.some((t) => t.id === id)) setSelected(id);
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, [tabs]);

  function select(id: string) {
    setSelected(id);
    // Keep the tab across reloads without adding history entries.
    history.replaceState(history.state, '', `#${id}`);
  }

  async function onLogout() {
    setLeaving(true);
    await logout();
  }

  return (
    <div className="dashboard">
      <header className="dash-header">
        <div>
          <h1 className="dash-header__title">{adminCopy.heading}</h1>
          <p className="dash-header__welcome">
            Welcome back, {displayName(user)} <RoleBadge role={user.role} />
          </p>
        </div>
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => void onLogout()}
          disabled={leaving}
        >
          Logout
        </button>
      </header>
      <AlertBanner />
      {hasPermission(user, 'manage_users') && <LaunchChecklist contentItems={launchContent} />}
      {hasPermission(user, 'admin') && <OutcomePrompt onOpen={() => select('election')} />}
      <Tabs label="Dashboard sections" items={tabs} selected={selected} onSelect={select} />
    </div>
  );
}
