import { describe, expect, it } from 'vitest';
import { filterTest, hasWord } from '../../src/lib/server/people/filters.ts';
import type { PersonSummary } from '../../src/lib/server/people/person.ts';

/* The People filters' whole-word test (docs/decisions/149-people.md, "Tags, notes and filters"). */

const summary = (over: Partial<PersonSummary>): PersonSummary =>
  ({
    sources: '',
    tags: '',
    events: '',
    attended: '',
    lang: '',
    zip: '',
    emailState: '',
    textState: '',
    ...over,
  }) as PersonSummary;

describe('hasWord', () => {
  it('finds whole words of a space-separated list, never a part of one', () => {
    expect(hasWord('canvasser driver', 'canvasser')).toBe(true);
    expect(hasWord('canvasser driver', 'driver')).toBe(true);
    expect(hasWord('canvasser driver', 'can')).toBe(false);
    expect(hasWord('canvasser driver', 'vasser')).toBe(false);
    expect(hasWord('x-can can', 'can')).toBe(true);
    expect(hasWord('', 'can')).toBe(false);
    expect(hasWord('a b', '')).toBe(false);
  });

  it('an event filter matches that event id, not one that contains its digits', () => {
    const rsvp7 = filterTest({ has: ['rsvp:7'] })!;
    expect(rsvp7(summary({ events: '17 70 77' }))).toBe(false);
    expect(rsvp7(summary({ events: '17 7' }))).toBe(true);
    const notAttended12 = filterTest({ hasNot: ['attended:12'] })!;
    expect(notAttended12(summary({ attended: '112 120' }))).toBe(true);
    expect(notAttended12(summary({ attended: '12' }))).toBe(false);
    const tag = filterTest({ tag: 'can' })!;
    expect(tag(summary({ tags: 'canvasser' }))).toBe(false);
  });
});
