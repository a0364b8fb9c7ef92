/**
 * Just enough of the zip format for the simulator's backups: a streaming writer (stored entries,
 * sizes and CRC in a data descriptor after each entry, so nothing is held whole) and a reader that
 * finds entries through the central directory (stored or deflated, as Python's zipfile writes
 * them). No ZIP64: an entry stays below 4 GiB.
 */
import { crc32, inflateRawSync } from 'node:zlib';

/** One entry to write: its name and bytes (whole, or as they come). */
export interface ZipEntry {
  name: string;
  data: Uint8Array | AsyncIterable<Uint8Array>;
}

const localHeader = 0x04034b50;
const dataDescriptor = 0x08074b50;
const centralHeader = 0x02014b50;
const endOfCentral = 0x06054b50;
// bit 3: sizes and CRC follow the data; bit 11: UTF-8 names
const flags = 0x0008 | 0x0800;
// 1980-01-01 00:00, the zip epoch
const dosTime = 0;
const dosDate = (0 << 9) | (1 << 5) | 1;

/** The zip file of `entries`, produced as it is read. */
export async function* zipStream(entries: readonly ZipEntry[]): AsyncGenerator<Uint8Array> {
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(localHeader, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(flags, 6);
    header.writeUInt16LE(0, 8); // stored
    header.writeUInt16LE(dosTime, 10);
    header.writeUInt16LE(dosDate, 12);
    header.writeUInt16LE(name.length, 26);
    const start = offset;
    yield Buffer.concat([header, name]);
    offset += header.length + name.length;
    let crc = 0;
    let size = 0;
    const chunks = entry.data instanceof Uint8Array ? [entry.data] : entry.data;
    for await (const chunk of chunks) {
      crc = crc32(chunk, crc);
      size += chunk.byteLength;
      yield chunk;
    }
    offset += size;
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(dataDescriptor, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(size, 8);
    descriptor.writeUInt32LE(size, 12);
    yield descriptor;
    offset += descriptor.length;
    const record = Buffer.alloc(46);
    record.writeUInt32LE(centralHeader, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(flags, 8);
    record.writeUInt16LE(0, 10);
    record.writeUInt16LE(dosTime, 12);
    record.writeUInt16LE(dosDate, 14);
    record.writeUInt32LE(crc >>> 0, 16);
    record.writeUInt32LE(size, 20);
    record.writeUInt32LE(size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(start, 42);
    central.push(record, name);
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(endOfCentral, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  yield Buffer.concat([directory, end]);
}

/** The entries of a zip file by name, or undefined when `zip` is not one the reader understands. */
export function readZip(zip: Buffer): Map<string, Buffer> | undefined {
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === endOfCentral) {
      end = i;
      break;
    }
  }
  if (end === -1) return undefined;
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out = new Map<string, Buffer>();
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== centralHeader) return undefined;
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== localHeader) return undefined;
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataStart, dataStart + compressed);
    if (method === 0) out.set(name, data);
    else if (method === 8) out.set(name, inflateRawSync(data));
    else return undefined;
    at += 46 + nameLength + extraLength + commentLength;
  }
  return out;
}
