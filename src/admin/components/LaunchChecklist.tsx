import { useLaunchSettings } from '../api/launch-check.ts';
import type { LaunchItem } from '../../lib/schemas/launch-check.ts';

/**
 * The launch checklist for admins (docs/decisions/085-launch-gate.md): the
 * same items that refuse a production build and that `npm run launch-check`
 * prints. The content half is built into the admin page (placeholders are fixed
 * at build); the settings half is read from the functions' environment. Closed
 * by default, above the tabs; nothing is shown once the list is empty.
 */
export function LaunchChecklist({ contentItems }: { contentItems: readonly LaunchItem[] }) {
  const { data } = useLaunchSettings();
  const settings = (data?.items ?? []).filter((i) => i.area === 'settings');
  const calendar = (data?.items ?? []).filter((i) => i.area === 'calendar');
  const total = contentItems.length + settings.length + calendar.length;
  if (total === 0) return null;
  return (
    <details className="alert alert--warning launch-checklist">
      <summary>
        Launch checklist: {total} thing{total === 1 ? '' : 's'} to replace or set before going live
      </summary>
      <p className="cell-sub">
        A production deploy is refused until each placeholder and setting is done; a past election calendar is
        flagged, not refused (the same list as <code>npm run launch-check</code>).
      </p>
      {contentItems.length > 0 && (
        <Section title="Site content (replace, then redeploy)" items={contentItems} />
      )}
      {settings.length > 0 && <Section title="Settings (Netlify environment variables)" items={settings} />}
      {calendar.length > 0 && <Section title="Election calendar (the Election tab)" items={calendar} />}
    </details>
  );
}

function Section({ title, items }: { title: string; items: readonly LaunchItem[] }) {
  return (
    <>
      <h2 className="launch-checklist__heading">{title}</h2>
      <ul className="launch-checklist__list">
        {items.map((i) => (
          <li key={i.key}>{i.message}</li>
        ))}
      </ul>
    </>
  );
}
