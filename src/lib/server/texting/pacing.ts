import { DEFAULT_BROADCAST_RATE } from '../../schemas/broadcast-rules.ts';
import { env } from '../env.ts';
import { UNCHANGED, upsert } from '../storage/compare-and-set.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';

/**
 * Pacing (docs/decisions/152-broadcasts.md): one budget per clock minute for the whole
 * site, `rate/<minute>` in the broadcasts store, shared by every worker and every broadcast. A worker
 * takes several units at once with one compare-and-set write and spends them only within that same
 * minute: when the minute turns, what is left is dropped, so no minute ever gets more than the rate.
 * Units are text segments (what carriers meter) or emails.
 */
export function broadcastRate(): number {
  const n = Number(env().BROADCAST_RATE_PER_MINUTE);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_BROADCAST_RATE;
}

const MINUTE = 60_000;
const minuteOf = (ms: number) => Math.floor(ms / MINUTE);

interface Budget {
  used: number;
}

/** The time the pacer waits by: the engine's Clock (src/lib/server/broadcasts/clock.ts) is one. */
export interface PacerClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export class Pacer {
  private minute = -1;
  private left = 0;
  private readonly clock: PacerClock;
  private readonly rate: number;
  constructor(clock: PacerClock, rate = broadcastRate()) {
    this.clock = clock;
    this.rate = rate;
  }

  /**
   * Waits until `units` can be spent in the current minute (taking up to `want` at once), then spends
   * them. Returns false when `deadline` (clock time) comes first. `units` above the rate is refused
   * (false): one message never exceeds a minute's budget.
   */
  async take(units: number, want: number, deadline: number): Promise<boolean> {
    if (units > this.rate) return false;
    for (;;) {
      const now = this.clock.now();
      if (now >= deadline) return false;
      const m = minuteOf(now);
      if (m !== this.minute) {
        this.minute = m;
        this.left = 0;
      }
      if (this.left >= units) {
        this.left -= units;
        return true;
      }
      const got = await this.reserve(m, Math.max(want, units) - this.left);
      // The minute may have turned while the write was under way: those units are void.
      if (minuteOf(this.clock.now()) !== m) continue;
      this.left += got;
      if (this.left >= units) continue;
      // The minute's budget is spent: wait for the next one.
      const next = (m + 1) * MINUTE;
      if (next >= deadline) return false;
      await this.clock.sleep(next - this.clock.now());
    }
  }

  /** Same-minute leftovers go back, so another worker can use them (best effort). */
  async release(): Promise<void> {
    if (this.left <= 0 || minuteOf(this.clock.now()) !== this.minute) return;
    const give = this.left;
    this.left = 0;
    await upsert<Budget>(kv('broadcasts'), key('rate', String(this.minute)), (cur) =>
      cur ? { used: Math.max(0, cur.used - give) } : UNCHANGED,
    ).catch(() => undefined);
  }

  private reserve(m: number, want: number): Promise<number> {
    return reserveRate(m, want, this.rate);
  }
}

/**
 * Takes up to `want` units of minute `m`'s budget (one compare-and-set write); `whole`: all of them or none.
 * Returns how many were taken.
 */
async function reserveRate(m: number, want: number, rate: number, whole = false): Promise<number> {
  let got = 0;
  await upsert<Budget>(kv('broadcasts'), key('rate', String(m)), (cur) => {
    const used = cur?.used ?? 0;
    got = Math.min(want, rate - used);
    if (got <= 0 || (whole && got < want)) {
      got = 0;
      return UNCHANGED;
    }
    return { used: used + got };
  });
  return got;
}

/**
 * For a single text sent by a job rather than the engine (an RSVP or plan-to-vote reminder: the guard calls
 * it): spends `units` of the current minute's budget now, or nothing and false when the minute has not that
 * many left (the job tries again in a later run). So reminders and broadcasts share one rate.
 */
export async function spendRateNow(units: number, nowMs: number, rate = broadcastRate()): Promise<boolean> {
  return units <= rate && (await reserveRate(minuteOf(nowMs), units, rate, true)) === units;
}
