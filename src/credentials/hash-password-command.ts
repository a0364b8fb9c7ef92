/**
 * `legacy-rpc-gateway hash-password`: reads one password from standard input (the whole input, a
 * final newline dropped) and prints its salted scrypt hash for a credential map entry. The password
 * never appears on a command line, in the shell history or on disk.
 */
import { hashPassword } from './password-hash.ts';

/** Reads the password, prints the hash; rejects when the input is empty. */
export async function runHashPasswordCommand(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  const password = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (password === '') throw new Error('hash-password: no password on standard input');
  output.write(`${await hashPassword(password)}\n`);
}
