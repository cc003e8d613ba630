/**
 * JSON-lines logging on winston. One root logger per process; services take children named after
 * themselves. Every line carries the current request id and passes through redaction.
 */
import winston from 'winston';
import Transport from 'winston-transport';
import { currentRequestId } from './request-context';
import { redactValue } from './redact';

export type LogFields = Record<string, unknown>;

/**
 * What every port and adapter logs through. Winston stays behind it, so a port's signature names
 * only this interface and a test (or a bench) can pass any object with these methods.
 */
export interface Logger {
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  /** A logger whose every line also carries `fields`. */
  child(fields: LogFields): Logger;
  /** True while nothing reads the lines (console muted, no capture): callers may skip building one. */
  readonly silent?: boolean;
}

export type LogLevel = 'error' | 'warn' | 'info' | 'debug' | 'silent';

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
    // 'info' until the validated configuration sets the level (setLogLevel at start-up).
    consoleTransport = new winston.transports.Console();
    root = winston.createLogger({
      level: 'info',
      format: winston.format.combine(winston.format.timestamp(), addContext(), winston.format.json()),
      transports: [consoleTransport],
    });
    muteWhenUnread(root);
  }
  return root;
}

/**
 * Winston formats a line (timestamp, request id, redaction, JSON) before its transports look at the
 * level, so a line below the level costs as much as one written: at `warn`, every request's `info`
 * line was built and thrown away (4 % of a streams replica's CPU during a reconnect storm). The
 * level is asked first here.
 */
class LevelGatedLogger implements Logger {
  constructor(private readonly inner: winston.Logger) {}

  error(message: string, fields?: LogFields): void {
    if (this.inner.isLevelEnabled('error')) this.inner.error(message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    if (this.inner.isLevelEnabled('warn')) this.inner.warn(message, fields);
  }

  info(message: string, fields?: LogFields): void {
    if (this.inner.isLevelEnabled('info')) this.inner.info(message, fields);
  }

  debug(message: string, fields?: LogFields): void {
    if (this.inner.isLevelEnabled('debug')) this.inner.debug(message, fields);
  }

  child(fields: LogFields): Logger {
    return new LevelGatedLogger(this.inner.child(fields));
  }

  get silent(): boolean {
    return this.inner.silent;
  }
}

export function createLogger(service: string): Logger {
  return new LevelGatedLogger(rootLogger().child({ service }));
}

/** Applied from validated configuration. 'silent' mutes the console only, so a capture (tests) still sees every line. */
export function setLogLevel(level: LogLevel): void {
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
