/** A small structured logger: one JSON line per event on stderr, filtered by level. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type LogLevel = keyof typeof LEVELS;

export function createLogger(level: LogLevel = 'info', out: NodeJS.WritableStream = process.stderr): Logger {
  const min = LEVELS[level];
  const emit = (lvl: LogLevel) => (msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return;
    out.write(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields })}\n`);
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
