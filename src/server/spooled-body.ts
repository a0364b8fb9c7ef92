/**
 * Request buffering for the passthrough, as nginx's `proxy_request_buffering` with
 * `client_body_buffer_size` and `client_max_body_size`: a body is read whole from the client before
 * the upstream request is opened, so a client trickling its body holds a gateway connection, never
 * an Odoo thread or worker, whatever the body's size. Up to `memoryBytes` it is kept in memory;
 * beyond, it goes to a temporary file; past `maxBytes` it is refused.
 *
 * The temporary file is unlinked as soon as it is created: only the open descriptor keeps it, so it
 * disappears when the descriptor closes (answer sent, client gone, error) and even a killed process
 * leaves nothing on disk.
 */
import { randomBytes } from 'node:crypto';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** A body read whole: in memory, or in an unlinked temporary file. */
export type SpooledBody = { bytes: Uint8Array } | SpoolFile;

/** A body on disk, read from the start by `stream()`; `close()` (idempotent) frees it. */
export interface SpoolFile {
  size: number;
  stream(): Readable;
  close(): Promise<void>;
}

/** Where and how much. */
export interface SpoolLimits {
  /** Bytes kept in memory; a body past it goes to disk. */
  memoryBytes: number;
  /** Largest body accepted. */
  maxBytes: number;
  /** Directory of the temporary files. */
  dir: string;
}

/**
 * Reads `body` whole; `'too-large'` when it is declared or found past `maxBytes` (the rest is left
 * unread). Rejects when the client fails or abandons the body, the temporary file closed first.
 */
export async function spoolBody(
  body: ReadableStream<Uint8Array>,
  declared: number | undefined,
  limits: SpoolLimits,
): Promise<SpooledBody | 'too-large'> {
  if (declared !== undefined && declared > limits.maxBytes) return 'too-large';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let file: FileHandle | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limits.maxBytes) {
        await reader.cancel().catch(() => undefined);
        await file?.close();
        return 'too-large';
      }
      if (file !== undefined) await onDisk(() => (file as FileHandle).write(value), limits.dir);
      else if (size <= limits.memoryBytes) chunks.push(value);
      else {
        file = await onDisk(() => openUnlinked(limits.dir), limits.dir);
        for (const chunk of [...chunks, value]) await onDisk(() => (file as FileHandle).write(chunk), limits.dir);
        chunks.length = 0;
      }
    }
  } catch (err) {
    await file?.close();
    throw err;
  }
  if (file === undefined) return { bytes: chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, size) };
  return spoolFile(file, size);
}

/**
 * The spool directory failed (a full disk: ENOSPC; a missing or read-only directory): not the
 * client's fault nor the upstream's, so the answer and the log say what failed, with the system's code.
 */
export class SpoolError extends Error {
  constructor(
    readonly code: string,
    readonly dir: string,
    cause: unknown,
  ) {
    super(
      `could not write the request body to --passthrough-spool-dir ${dir}: ${code}${cause instanceof Error ? ` (${cause.message})` : ''}`,
      { cause },
    );
    this.name = 'SpoolError';
  }
}

/** Runs a file operation on the spool, its failure a {@link SpoolError}. */
async function onDisk<T>(op: () => Promise<T>, dir: string): Promise<T> {
  try {
    return await op();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new SpoolError(typeof code === 'string' ? code : 'EIO', dir, err);
  }
}

/** A new file in `dir` opened for reading and writing, already unlinked. */
async function openUnlinked(dir: string): Promise<FileHandle> {
  const path = join(dir, `legacy-rpc-gateway-body-${process.pid}-${randomBytes(8).toString('hex')}`);
  const handle = await open(path, 'wx+', 0o600);
  await unlink(path).catch(async (err: unknown) => {
    await handle.close();
    throw err;
  });
  return handle;
}

function spoolFile(handle: FileHandle, size: number): SpoolFile {
  let closed: Promise<void> | undefined;
  return {
    size,
    // the descriptor stays ours: `close()` frees it whatever the stream did
    stream: () => handle.createReadStream({ start: 0, autoClose: false }),
    close: () => (closed ??= handle.close().catch(() => undefined)),
  };
}
