import { vi } from 'vitest';
import { runShiftSequence } from '../../src/lib/server/events/shift-sequence.ts';
import { valuesOf } from './forms.ts';

/*
 * The confirm-and-remind sequence's fake clock and outbox, shared by tests/api/shift-sequence.test.ts and
 * tests/api/event-sequence.test.ts: New Orleans wall times in October 2026 written with their -05:00 offset (never
 * computed by the campaign clock under test), the four steps' times as the decision record states them, the
 * worker run at a moment, and the local outbox's texts and emails.
 */

/** New Orleans wall time in October 2026 (CDT, -05:00), written with its offset. */
export function nola(date: string, hhmm: string): Date {
  if (!/^2026-10-(0[1-9]|[12]\d|3[01])$/.test(date))
    throw new Error(`-05:00 is October 2026's offset, not ${date}'s`);
  return new Date(`${date}T${hhmm}:00-05:00`);
}
export const MIN = 60_000;
export const plus = (d: Date, minutes: number) => new Date(d.getTime() + minutes * MIN);
const prevDay = (date: string) =>
  new Date(Date.parse(`${date}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** The four steps' times of a slot (or an event's implicit one), the defaults of docs/decisions/181-shifts.md. */
export function stepTimes(s: { date: string; start: string; end: string }) {
  return {
    dayBefore: nola(prevDay(s.date), '11:00'),
    morning: nola(s.date, '08:00'),
    soon: plus(nola(s.date, s.start), -30),
    followUp: plus(nola(s.date, s.end), 60),
  };
}
export type Step = keyof ReturnType<typeof stepTimes>;

export const AREAS = ['212', '504', '303', '415']; // New York, New Orleans, Denver, San Francisco

export interface Sms {
  to: string;
  body: string;
  at: string;
}
export interface Mail {
  to: string;
  subject: string;
  text: string;
  at: string;
}
export const texts = () => valuesOf<Sms>('outbox', 'sms/');
export const emails = () => valuesOf<Mail>('outbox', 'email/');

/** Runs `workers` copies of the worker at `t` side by side (the fake Date follows, for the code that reads it). */
export async function runAt(t: Date, workers = 1) {
  vi.setSystemTime(t);
  return Promise.allSettled(Array.from({ length: workers }, () => runShiftSequence(t)));
}
