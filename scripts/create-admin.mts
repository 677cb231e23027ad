/**
 * Creates the first admin (or any admin) of a deployed site. Production has no
 * default accounts; this is the documented bootstrap (README, docs/deploy.md).
 *
 *   NETLIFY_SITE_ID=... NETLIFY_AUTH_TOKEN=... npm run create-admin -- --username jane --email jane@example.org
 *
 * The password is read from the ADMIN_PASSWORD environment variable or typed at
 * the prompt (not echoed), never from the command line (shell history).
 */
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline/promises';
import { stdin, stdout, exit, env } from 'node:process';
import { connectBlobs } from './lib/connect.mts';
import { createUser } from '../src/lib/server/auth/users.ts';
import { UserCreateSchema } from '../src/lib/schemas/user.ts';

const { values } = parseArgs({
  options: {
    username: { type: 'string' },
    email: { type: 'string' },
    'first-name': { type: 'string', default: '' },
    'last-name': { type: 'string', default: '' },
  },
});

async function readPassword(): Promise<string> {
  if (env.ADMIN_PASSWORD) return env.ADMIN_PASSWORD;
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const c of stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  const rl = createInterface({ input: stdin, output: stdout, terminal: true });
  // Hide the typed characters.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
    if (s.includes('Password')) stdout.write(s);
  };
  const pw = await rl.question('Password (min 6 characters): ');
  rl.close();
  stdout.write('\n');
  return pw;
}

async function main(): Promise<void> {
  const disconnect = await connectBlobs(false);
  const input = UserCreateSchema.safeParse({
    username: values.username,
    email: values.email,
    password: await readPassword(),
    role: 'admin',
    firstName: values['first-name'],
    lastName: values['last-name'],
    isActive: true,
  });
  if (!input.success) {
    for (const issue of input.error.issues)
      console.error(`${issue.path.join('.') || 'input'}: ${issue.message}`);
    exit(2);
  }
  const user = await createUser(input.data);
  console.log(`Created admin #${user.id} ${user.username} <${user.email}>. Sign in at /admin.`);
  await disconnect();
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  exit(1);
});
