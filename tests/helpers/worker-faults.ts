import type * as EmailAdapter from '../../src/lib/server/adapters/email.ts';
import type * as SmsAdapter from '../../src/lib/server/adapters/sms.ts';

/*
 * A worker killed mid-send, for the sequence tests' `vi.mock` of the two adapters: each file mocks them with
 *   vi.mock('../../src/lib/server/adapters/sms.ts', async (real) =>
 *     (await import('../helpers/worker-faults.ts')).killableSms(await real()));
 * and sets `faults` (the same module instance the factories read). Imports nothing that sends: a factory loads it
 * while the adapter it replaces is being loaded.
 */
export const faults = {
  /** Chance that a send throws before the provider is asked (the worker killed there). */
  before: 0,
  /** Chance that a text is sent and then the worker dies before recording it. */
  afterText: 0,
  random: Math.random,
};

export const killableSms = (real: typeof SmsAdapter): typeof SmsAdapter => ({
  ...real,
  sendSms: async (m) => {
    if (faults.random() < faults.before) throw new Error('worker killed before the text');
    const sent = await real.sendSms(m);
    if (faults.random() < faults.afterText) throw new Error('worker killed after the text went');
    return sent;
  },
});

export const killableEmail = (real: typeof EmailAdapter): typeof EmailAdapter => ({
  ...real,
  sendEmail: async (m) => {
    if (faults.random() < faults.before) throw new Error('worker killed before the email');
    return real.sendEmail(m);
  },
});

/** A seeded generator, so a failing run can be replayed. */
export function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
