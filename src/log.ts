/**
 * The gateway's logger (pino). Call arguments, passwords and keys are never passed to it; the
 * redaction paths below are a second net in case a header object slips into a log line.
 */
import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';

type PrettyBuild = typeof import('pino-pretty').build;

export type { Logger };

/** Paths pino blanks out wherever they appear in a log object. */
export const redactedPaths = [
  'password',
  '*.password',
  'key',
  '*.key',
  'apiKey',
  '*.apiKey',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers.cookie',
  'cookie',
  '*.cookie',
  'params',
  '*.params',
  'headers["set-cookie"]',
  '*.headers["set-cookie"]',
  'token',
  '*.token',
];

/** Creates a logger writing JSON lines to `destination` (default stdout). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    name: 'legacy-rpc-gateway',
    redact: { paths: redactedPaths, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}

/** `--log-format`: JSON lines, colored lines for people, or pretty only when stdout is a terminal. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** Pretty lines were asked for (`--log-format pretty`) but pino-pretty, a development dependency, is not installed. */
export class PrettyLogsUnavailable extends Error {
  constructor() {
    super(
      '--log-format pretty needs the pino-pretty package, which production installs leave out: install it (npm install pino-pretty) or use --log-format json',
    );
    this.name = 'PrettyLogsUnavailable';
  }
}

/**
 * pino-pretty, loaded only when pretty lines are wanted, so production installs (JSON logs) need not
 * carry it. `undefined` when it is not installed.
 */
export function loadPrettyBuild(): PrettyBuild | undefined {
  try {
    return (createRequire(import.meta.url)('pino-pretty') as { build: PrettyBuild }).build;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw err;
  }
}

/** Bytes of JSON lines held before they are written (about ten access lines). */
const heldBytes = 4096;

/**
 * Standard output for JSON lines. With a `flushIntervalMs` over 0, a write per 4 KiB or per interval
 * rather than per line: one write per call was most of the access log's cost (BENCHMARKS.md, issue
 * #41), and each woke the log collector at the other end of the pipe. Writes stay asynchronous, as
 * pino's default: a stalled collector never blocks a call. pino writes the held lines at exit,
 * however the process ends short of SIGKILL.
 */
export function stdoutDestination(flushIntervalMs: number, fd = 1): ReturnType<typeof pino.destination> {
  if (flushIntervalMs <= 0) return pino.destination({ dest: fd, sync: false });
  const out = pino.destination({ dest: fd, sync: false, minLength: heldBytes });
  // the flush is armed by a held line, not by a clock: an idle gateway does not wake to write nothing
  // (sonic-boom's periodicFlush would, ten times a second)
  let due: NodeJS.Timeout | undefined;
  let closed = false;
  out.once('close', () => (closed = true));
  const flush = () => {
    due = undefined;
    if (!closed) out.flush();
  };
  const write = out.write.bind(out);
  out.write = (line: string) => {
    const taken = write(line);
    if (due === undefined) {
      due = setTimeout(flush, flushIntervalMs);
      due.unref();
    }
    return taken;
  };
  return out;
}

/**
 * The process's logger on stdout: JSON lines (pino) unless `format` asks for pretty lines, or is
 * `auto` and stdout is a terminal. Pretty lines are formatted in-process (no worker thread), with
 * the same redaction, and written as they come. `auto` falls back to JSON lines when pino-pretty is
 * not installed; `pretty` throws {@link PrettyLogsUnavailable}. JSON lines on stdout are held up to
 * `flushIntervalMs` ({@link stdoutDestination}).
 */
export function createProcessLogger(
  level: string,
  format: LogFormat,
  {
    isTty = process.stdout.isTTY === true,
    destination,
    loadPretty = loadPrettyBuild,
    flushIntervalMs = 0,
  }: { isTty?: boolean; destination?: NodeJS.WritableStream; loadPretty?: () => PrettyBuild | undefined; flushIntervalMs?: number } = {},
): Logger {
  const json = () => createLogger(level, destination ?? stdoutDestination(flushIntervalMs));
  if (!(format === 'pretty' || (format === 'auto' && isTty))) return json();
  const prettyStream = loadPretty();
  if (prettyStream === undefined) {
    if (format === 'pretty') throw new PrettyLogsUnavailable();
    return json();
  }
  const options = { colorize: isTty, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,name', sync: true };
  return createLogger(level, prettyStream(destination === undefined ? options : { ...options, destination }));
}
