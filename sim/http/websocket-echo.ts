/**
 * `/websocket` (where Odoo 19 serves its bus) as a websocket echo (RFC 6455), for passthrough
 * tests: the handshake, then every text or binary message is sent back unchanged, pings are ponged
 * and a close is answered. Fragmented messages and extensions are not modelled.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const acceptGuid = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** The `Sec-WebSocket-Accept` value for a client's `Sec-WebSocket-Key` (RFC 6455 §4.2.2). */
export function websocketAccept(key: string): string {
  return createHash('sha1')
    .update(key + acceptGuid)
    .digest('base64');
}

/** Answers an upgrade request: 101 and the echo on `/websocket`, 400 for anything else. */
export function handleWebsocketUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
  socket.on('error', () => socket.destroy());
  const path = (req.url ?? '/').split('?')[0];
  const key = req.headers['sec-websocket-key'];
  if (path !== '/websocket' || req.headers.upgrade?.toLowerCase() !== 'websocket' || typeof key !== 'string') {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    return;
  }
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${websocketAccept(key)}\r\n\r\n`,
  );
  let buffered = head;
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      const frame = readFrame(buffered);
      if (frame === undefined) return;
      buffered = buffered.subarray(frame.length);
      if (frame.opcode === 0x8) {
        socket.end(encodeFrame(0x8, frame.payload.subarray(0, 2)));
        return;
      }
      if (frame.opcode === 0x9) socket.write(encodeFrame(0xa, frame.payload));
      else if (frame.opcode === 0x1 || frame.opcode === 0x2) socket.write(encodeFrame(frame.opcode, frame.payload));
    }
  };
  socket.on('data', onData);
  if (head.length > 0) onData(Buffer.alloc(0));
}

/** One client frame (always masked, RFC 6455 §5.3), or `undefined` while incomplete. */
function readFrame(buf: Buffer): { opcode: number; payload: Buffer; length: number } | undefined {
  if (buf.length < 2) return undefined;
  const opcode = (buf[0] as number) & 0x0f;
  const masked = ((buf[1] as number) & 0x80) !== 0;
  let size = (buf[1] as number) & 0x7f;
  let offset = 2;
  if (size === 126) {
    if (buf.length < 4) return undefined;
    size = buf.readUInt16BE(2);
    offset = 4;
  } else if (size === 127) {
    if (buf.length < 10) return undefined;
    size = Number(buf.readBigUInt64BE(2));
    offset = 10;
  }
  const maskOffset = offset;
  if (masked) offset += 4;
  if (buf.length < offset + size) return undefined;
  const payload = Buffer.from(buf.subarray(offset, offset + size));
  if (masked) for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] as number) ^ (buf[maskOffset + (i % 4)] as number);
  return { opcode, payload, length: offset + size };
}

/** A final, unmasked server frame. */
function encodeFrame(opcode: number, payload: Buffer): Buffer {
  const size = payload.length;
  const header = size < 126 ? Buffer.from([0x80 | opcode, size]) : size < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  if (size >= 126 && size < 65536) {
    header[0] = 0x80 | opcode;
    header[1] = 126;
    header.writeUInt16BE(size, 2);
  } else if (size >= 65536) {
    header[0] = 0x80 | opcode;
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(size), 2);
  }
  return Buffer.concat([header, payload]);
}
