import { useAlerts } from '../api/get-alerts.ts';
import { formatDateTime } from '../forms/datetime.ts';

/**
 * Alerts raised by the server today (src/lib/server/texting/alerts.ts), above the
 * tabs for every staff member. Nothing is shown while there are none or the
 * call fails (the tabs report their own errors).
 */
export function AlertBanner() {
  const { data } = useAlerts();
  if (!data || data.alerts.length === 0) return null;
  return (
    <div className="alert alert--error dash-alerts" role="alert">
      {data.alerts.map((a) => (
        <p key={`${a.kind}-${a.day}`}>
          {a.message} <span className="cell-sub">Since {formatDateTime(a.at)}.</span>
        </p>
      ))}
      <p className="cell-sub">
        Texts sent today: {data.smsToday.used} of {data.smsToday.max}; the count starts again{' '}
        {formatDateTime(data.smsToday.resetsAt)}.
      </p>
    </div>
  );
}
