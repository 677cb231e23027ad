/**
 * The delivery engine's time: the real clock in production, a fake one in tests (which advance it
 * instead of waiting), so quiet hours, pacing minutes and lease expiry are tested without sleeping.
 */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};
