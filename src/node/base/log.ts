// Leveled logging for the node: one line per event on stderr, so stdout stays the banner
// and whatever a script pipes from it.

export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  level: LogLevel;
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const emit = (at: LogLevel, message: string) => {
    if (LOG_LEVELS.indexOf(at) <= rank) write(`${new Date().toISOString()} ${at.padEnd(5)} ${message}\n`);
  };
  return {
    level,
    error: (m) => emit('error', m),
    warn: (m) => emit('warn', m),
    info: (m) => emit('info', m),
    debug: (m) => emit('debug', m),
  };
}

export const silentLogger: Logger = createLogger('silent');
