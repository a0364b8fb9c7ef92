/**
 * The gateway's logger (pino). Call arguments, passwords and keys are never passed to it; the
 * redaction paths below are a second net in case a header object slips into a log line.
 */
import { pino, type Logger } from 'pino';
import { build as prettyStream } from 'pino-pretty';

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

/**
 * The process's logger on stdout: JSON lines (pino) unless `format` asks for pretty lines, or is
 * `auto` and stdout is a terminal. Pretty lines are formatted in-process (no worker thread), with
 * the same redaction.
 */
export function createProcessLogger(
  level: string,
  format: LogFormat,
  { isTty = process.stdout.isTTY === true, destination }: { isTty?: boolean; destination?: NodeJS.WritableStream } = {},
): Logger {
  const pretty = format === 'pretty' || (format === 'auto' && isTty);
  if (!pretty) return destination === undefined ? createLogger(level) : createLogger(level, destination);
  const options = { colorize: isTty, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,name', sync: true };
  return createLogger(level, prettyStream(destination === undefined ? options : { ...options, destination }));
}
