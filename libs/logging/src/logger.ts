/**
 * JSON-lines logging on winston. One root logger per process; services take children named after
 * themselves. Every line carries the current request id and passes through redaction.
 */
import winston from 'winston';
import Transport from 'winston-transport';
import { currentRequestId } from './request-context';
import { redactValue } from './redact';

export type Logger = winston.Logger;

const addContext = winston.format((info) => {
  const requestId = currentRequestId();
  if (requestId && info.request_id === undefined) info.request_id = requestId;
  for (const key of Object.keys(info)) {
    (info as Record<string, unknown>)[key] = redactValue((info as Record<string, unknown>)[key]);
  }
  return info;
});

let root: winston.Logger | undefined;
let consoleTransport: winston.transports.ConsoleTransportInstance | undefined;
let captures = 0;

/**
 * With the console muted and nothing capturing, the logger itself goes silent: winston would
 * otherwise still stamp, redact and serialize every line for no reader.
 */
function muteWhenUnread(logger: winston.Logger): void {
  logger.silent = Boolean(consoleTransport?.silent) && captures === 0;
}

function rootLogger(): winston.Logger {
  if (!root) {
    const level = process.env.WELLSTREAM_LOG_LEVEL ?? 'info';
    // 'silent' mutes the console only, so a capture (tests) still sees every line.
    consoleTransport = new winston.transports.Console({ silent: level === 'silent' });
    root = winston.createLogger({
      level: level === 'silent' ? 'info' : level,
      format: winston.format.combine(winston.format.timestamp(), addContext(), winston.format.json()),
      transports: [consoleTransport],
    });
    muteWhenUnread(root);
  }
  return root;
}

export function createLogger(service: string): Logger {
  return rootLogger().child({ service });
}

export function setLogLevel(level: string): void {
  const logger = rootLogger();
  if (consoleTransport) consoleTransport.silent = level === 'silent';
  if (level !== 'silent') logger.level = level;
  muteWhenUnread(logger);
}

/** Sends every log line (already formatted and redacted) to `sink` too; returns a remover. Tests use it. */
export function captureLogs(sink: (line: string) => void): () => void {
  const logger = rootLogger();
  class Capture extends Transport {
    override log(info: Record<string | symbol, unknown>, next: () => void) {
      sink(String(info[Symbol.for('message')] ?? JSON.stringify(info)));
      next();
    }
  }
  const transport = new Capture();
  logger.add(transport);
  captures++;
  muteWhenUnread(logger);
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    logger.remove(transport);
    captures--;
    muteWhenUnread(logger);
  };
}
