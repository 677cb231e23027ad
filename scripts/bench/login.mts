/**
 * Argon2 cost and login throughput. Prints a markdown section for docs/benchmarks.md.
 *   npm exec -- node scripts/bench/login.mts
 */
import autocannon from 'autocannon';
import { hashPassword, verifyPassword } from '../../src/lib/server/auth/passwords.ts';
import { createUser } from '../../src/lib/server/auth/users.ts';
import * as loginFn from '../../netlify/functions/auth-login.mts';
import { benchBlobs, serveFunctions } from './serve.mts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function benchLogin(): Promise<string> {
  const stopBlobs = await benchBlobs();
  try {
    const hashTimes: number[] = [];
    const verifyTimes: number[] = [];
    let hash = '';
    for (let i = 0; i < 15; i++) {
      let t = performance.now();
      hash = await hashPassword('benchmark password');
      hashTimes.push(performance.now() - t);
      t = performance.now();
      await verifyPassword(hash, 'benchmark password');
      verifyTimes.push(performance.now() - t);
    }
    await createUser({
      username: 'benchuser',
      email: 'bench@example.org',
      password: 'benchmark password',
      role: 'editor',
    });
    const server = await serveFunctions([loginFn]);
    const result = await autocannon({
      url: `${server.url}/api/auth/login`,
      method: 'POST',
      connections: 4,
      duration: 8,
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ username: 'benchuser', password: 'benchmark password' }),
    });
    // Let in-flight handlers finish before the store goes away.
    await new Promise((r) => setTimeout(r, 1000));
    await server.close();
    return [
      '## Login and argon2 cost',
      '',
      '| measure | value |',
      '|---|---|',
      `| argon2id hash (m=19 MiB, t=2, p=1), median of 15 | ${median(hashTimes).toFixed(1)} ms |`,
      `| argon2id verify, median of 15 | ${median(verifyTimes).toFixed(1)} ms |`,
      `| POST /api/auth/login, 4 connections, 8 s: requests/s | ${result.requests.average.toFixed(1)} |`,
      `| login latency p50 / p99 | ${result.latency.p50} ms / ${result.latency.p99} ms |`,
      `| non-2xx answers | ${result.non2xx} |`,
      '',
    ].join('\n');
  } finally {
    await stopBlobs();
  }
}

if (import.meta.main) console.log(await benchLogin());
