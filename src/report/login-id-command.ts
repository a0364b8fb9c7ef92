/**
 * `legacy-rpc-gateway login-id`: reads one login from standard input (a final newline dropped) and
 * prints the pseudonym the migration report and the access log show for it (`login:` and 12 hex
 * digits), keyed with the state secret from `STATE_SECRET` or `STATE_SECRET_FILE`, as the gateway
 * is. The secret never appears on a command line.
 */
import { readFileSync } from 'node:fs';
import { keyedLoginId, pseudonymKey } from './call-identity.ts';

/** Reads the login, prints its pseudonym; rejects without a state secret or a login. */
export async function runLoginIdCommand(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const file = env.STATE_SECRET_FILE;
  const secret = file !== undefined && file !== '' ? readFileSync(file, 'utf8').replace(/\r?\n$/, '') : env.STATE_SECRET;
  if (secret === undefined || secret.length < 32)
    throw new Error(
      "login-id: set STATE_SECRET or STATE_SECRET_FILE to the gateway's --state-secret (without one, pseudonyms are the process's own)",
    );
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  const login = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (login === '') throw new Error('login-id: no login on standard input');
  output.write(`${keyedLoginId(login, pseudonymKey(secret))}\n`);
}
