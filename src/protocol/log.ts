/** Same shape as `Host.log`, so the host can pass its log channel straight in. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type LogFn = (level: LogLevel, message: string) => void;
