/**
 * Streaming routes for passthrough tests (not Odoo routes: they live under `/sim/`), answered on
 * the raw node:http objects because the simulator's router reads whole bodies:
 * - `POST /sim/upload` hashes the body as it arrives and answers `{"bytes": n, "sha256": hex}`;
 *   tests can wait until a given number of bytes arrived (proof that a proxy streams uploads).
 * - `GET /sim/download?bytes=N[&hold=K]` sends N deterministic bytes with a Content-Length,
 *   pausing after K bytes until a test releases it (proof that a proxy streams downloads).
 * - `GET /odoo` without a session: Odoo 19's 303 to the login page, for redirect passthrough.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { drainedOrClosed } from './drain.ts';

/** Chunk size of downloads. */
const chunkBytes = 64 * 1024;

/** The tests' handle on the streaming routes. */
export interface TransferControl {
  /** Resolves once the upload in progress (or the next one) has received at least `bytes` bytes. */
  uploadReceived(bytes: number): Promise<void>;
  /** Lets held downloads go on past their `hold` point (and later ones not stop). */
  releaseDownloads(): void;
  /** Resolves once a download has sent its bytes up to its `hold` point. */
  downloadHeld(): Promise<void>;
}

/** The per-simulator state behind {@link TransferControl}. */
export interface TransferState {
  transfers: TransferControl & {
    /** @internal progress of the current upload */
    received(bytes: number): void;
    /** @internal a download reached its hold point; resolves when released */
    hold(): Promise<void>;
    /** @internal keeps an upgraded (websocket) connection, to destroy at close */
    trackUpgraded(socket: Duplex): void;
    /** @internal destroys the upgraded connections still open */
    closeUpgraded(): void;
  };
}

/** Creates the state of a fresh simulator. */
export function createTransfers(): TransferState['transfers'] {
  let waiters: Array<{ bytes: number; resolve: () => void }> = [];
  let released = false;
  let onRelease: Array<() => void> = [];
  let heldWaiters: Array<() => void> = [];
  let heldCount = 0;
  const upgraded = new Set<Duplex>();
  return {
    trackUpgraded(socket) {
      upgraded.add(socket);
      socket.once('close', () => upgraded.delete(socket));
    },
    closeUpgraded() {
      for (const socket of upgraded) socket.destroy();
    },
    uploadReceived: (bytes) => new Promise((resolve) => waiters.push({ bytes, resolve })),
    received(bytes) {
      const ready = waiters.filter((w) => w.bytes <= bytes);
      waiters = waiters.filter((w) => w.bytes > bytes);
      for (const w of ready) w.resolve();
    },
    releaseDownloads() {
      released = true;
      for (const go of onRelease) go();
      onRelease = [];
    },
    downloadHeld: () => (heldCount > 0 ? Promise.resolve() : new Promise((resolve) => heldWaiters.push(resolve))),
    hold() {
      heldCount++;
      for (const wake of heldWaiters) wake();
      heldWaiters = [];
      return released ? Promise.resolve() : new Promise((resolve) => onRelease.push(resolve));
    },
  };
}

/** The byte at `offset` of every download: a pattern a test can recompute. */
export function downloadByte(offset: number): number {
  return (offset * 31 + (offset >>> 8)) & 0xff;
}

/** Whether the request is one of these routes (checked before the simulator reads the body). */
export function isTransferRoute(method: string, path: string): boolean {
  return (method === 'POST' && path === '/sim/upload') || (method === 'GET' && (path === '/sim/download' || path === '/odoo'));
}

/** Answers one of these routes. */
export function handleTransfer(state: TransferState, msg: IncomingMessage, res: ServerResponse): void {
  const url = new URL(msg.url ?? '/', 'http://sim');
  if (url.pathname === '/sim/upload') return void upload(state, msg, res);
  if (url.pathname === '/odoo') {
    res.writeHead(303, { Location: '/web/login?redirect=%2Fodoo%3F', 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': '0' });
    return void res.end();
  }
  void download(state, url, res);
}

function upload(state: TransferState, msg: IncomingMessage, res: ServerResponse): void {
  const hash = createHash('sha256');
  let bytes = 0;
  msg.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    bytes += chunk.length;
    state.transfers.received(bytes);
  });
  msg.on('end', () => {
    const body = JSON.stringify({ bytes, sha256: hash.digest('hex') });
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)) });
    res.end(body);
  });
}

async function download(state: TransferState, url: URL, res: ServerResponse): Promise<void> {
  const total = Number(url.searchParams.get('bytes') ?? '0');
  const holdAt = url.searchParams.has('hold') ? Number(url.searchParams.get('hold')) : undefined;
  res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(total) });
  let offset = 0;
  let held = false;
  while (offset < total && !res.destroyed) {
    if (holdAt !== undefined && !held && offset >= holdAt) {
      held = true;
      await state.transfers.hold();
      continue;
    }
    const end = Math.min(total, offset + chunkBytes, holdAt !== undefined && !held ? holdAt : total);
    const chunk = Buffer.alloc(end - offset);
    for (let i = 0; i < chunk.length; i++) chunk[i] = downloadByte(offset + i);
    offset = end;
    if (!res.write(chunk)) await drainedOrClosed(res);
  }
  res.end();
}
