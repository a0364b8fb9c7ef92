/**
 * The gateway's logger (pino). Call arguments, passwords and keys are never passed to it; the
 * redaction paths below are a second net in case a header object slips into a log line.
 */
import { pino, type Logger } from 'pino';

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
];

/** Creates the root logger; JSON lines on stdout (the process's TTY decides nothing here). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    name: 'legacy-rpc-gateway',
    redact: { paths: redactedPaths, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}
