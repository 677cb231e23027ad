import { useId } from 'react';
import { LANGS } from '../../lib/lang.ts';
import { LANG_NAMES_FOR_STAFF } from '../../lib/lang-names.ts';
import { useEventsNewestFirst } from '../api/get-events.ts';
import {
  CONSENT_FILTER_LABELS,
  EVENT_HAS,
  HAS_FILTER_LABELS,
  PERSON_FILTER_SOURCES,
  sourceLabel,
  type PeopleListFilter,
} from '../api/people.ts';

/**
 * The People list's filter controls (docs/decisions/149-people.md, "The People tab"): source, tag, language,
 * consent per channel, has and has not. Each is the server's filter of the same name; '' is any. When has (has not)
 * is RSVP'd or attended, an event picker (newest first) narrows it to that event: `rsvp:<id>`, `attended:<id>`.
 */
export function PeopleFilters({
  filter,
  onChange,
}: {
  filter: PeopleListFilter;
  onChange: (next: PeopleListFilter) => void;
}) {
  const ids = {
    source: useId(),
    tag: useId(),
    lang: useId(),
    email: useId(),
    text: useId(),
    has: useId(),
    hasNot: useId(),
    hasEvent: useId(),
    hasNotEvent: useId(),
  };
  const events = useEventsNewestFirst(
    EVENT_HAS.includes(filter.has) || EVENT_HAS.includes(filter.hasNot),
  ).events.map((ev): [string, string] => [String(ev.id), `${ev.title} (${ev.eventDate})`]);
  // A kind that takes no event drops the event picked for the one before it: the state is what the list shows.
  const set = (k: keyof PeopleListFilter) => (e: { target: { value: string } }) => {
    const v = e.target.value;
    const next = { ...filter, [k]: v };
    if (k === 'has' && !EVENT_HAS.includes(v)) next.hasEvent = '';
    if (k === 'hasNot' && !EVENT_HAS.includes(v)) next.hasNotEvent = '';
    onChange(next);
  };
  const select = (k: keyof PeopleListFilter, label: string, any: string, options: [string, string][]) => (
    <div className="field">
      <label htmlFor={ids[k]} className="field__label">
        {label}
      </label>
      <select id={ids[k]} className="input" value={filter[k]} onChange={set(k)}>
        <option value="">{any}</option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
  const consent = Object.entries(CONSENT_FILTER_LABELS);
  const has = Object.entries(HAS_FILTER_LABELS);
  return (
    <>
      {select(
        'source',
        'Source',
        'Any source',
        PERSON_FILTER_SOURCES.map((s) => [s, sourceLabel(s)]),
      )}
      <div className="field">
        <label htmlFor={ids.tag} className="field__label">
          Tag
        </label>
        <input
          id={ids.tag}
          className="input"
          value={filter.tag}
          onChange={set('tag')}
          autoComplete="off"
          spellCheck={false}
          size={12}
        />
      </div>
      {select(
        'lang',
        'Language',
        'Any language',
        LANGS.map((l) => [l, LANG_NAMES_FOR_STAFF[l]]),
      )}
      {select('email', 'Email consent', 'Any', consent)}
      {select('text', 'Text consent', 'Any', consent)}
      {select('has', 'Has', 'Anything', has)}
      {EVENT_HAS.includes(filter.has) && select('hasEvent', 'Has: which event', 'Any event', events)}
      {select('hasNot', 'Has not', 'Nothing left out', has)}
      {EVENT_HAS.includes(filter.hasNot) &&
        select('hasNotEvent', 'Has not: which event', 'Any event', events)}
    </>
  );
}
