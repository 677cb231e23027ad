/**
 * The staff audit trail (docs/decisions/033-audit-trail.md): every kind of recorded staff action, with
 * the label the Activity tab shows. Declared once; the server, the filter
 * menu and the CSV export derive from it. zod-free: the dashboard imports it
 * without pulling schema code into the zod chunk public pages share.
 */
export const AUDIT_KIND_LABELS = {
  'auth.sign_in': 'Signed in',
  'auth.sign_out': 'Signed out',
  'auth.sign_in_failed': 'Failed sign-in',
  'auth.password_change': 'Changed password',
  'auth.password_reset': 'Reset password',
  'auth.two_factor_enable': 'Turned on two-factor',
  'auth.two_factor_disable': 'Turned off two-factor',
  'auth.two_factor_failed': 'Failed two-factor code',
  'auth.two_factor_reset': 'Reset a member’s two-factor',
  'auth.recovery_code_used': 'Used a recovery code',
  'auth.recovery_codes_new': 'Made new recovery codes',
  'auth.reauth_locked': 'Signed out after too many password attempts',
  'settings.two_factor_policy': 'Changed two-factor policy',
  'settings.election_calendar': 'Changed election calendar',
  'user.create': 'Created user',
  'user.update': 'Changed user',
  'user.deactivate': 'Deactivated user',
  'user.delete': 'Deleted user',
  'article.create': 'Created article',
  'article.update': 'Updated article',
  'article.publish': 'Published article',
  'article.unpublish': 'Unpublished article',
  'article.delete': 'Deleted article',
  'article.restore': 'Restored article',
  'event.create': 'Created event',
  'event.update': 'Updated event',
  'event.publish': 'Made event public',
  'event.unpublish': 'Made event private',
  'event.delete': 'Deleted event',
  'event.restore': 'Restored event',
  'social.update': 'Edited social link',
  'metric.update': 'Edited metric',
  'goal.update': 'Edited volunteer goal',
  'milestone.update': 'Edited milestone',
  'inbox.export': 'Exported inbox list',
  'vote_plan.export': 'Exported plans to vote',
  'rsvp.check_in': 'Checked in attendee',
  'rsvp.check_out': 'Undid a check-in',
  'rsvp.export': 'Exported attendee list',
  'donation.goal_update': 'Changed donation goal',
  'donation.export': 'Exported donation totals',
  'upload.create': 'Uploaded image',
  'audit.export': 'Exported activity',
} as const;

export type AuditKind = keyof typeof AUDIT_KIND_LABELS;
export const AUDIT_KINDS = Object.keys(AUDIT_KIND_LABELS) as [AuditKind, ...AuditKind[]];
