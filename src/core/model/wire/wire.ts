import type { CallOptions, StreamPart, Warning } from './modelSpec';

/** One request on a wire: where it goes and what it carries. */
export interface WireRequest {
  path: string;
  body: Record<string, unknown>;
  warnings: Warning[];
}

/** Reads one response's events; `end` runs once after the last event of a stream that ended well. */
export interface WireParser {
  data(data: string): void;
  end(): void;
}

/** A wire protocol: how a call becomes a request and how the events become stream parts. */
export interface Wire {
  request(modelId: string, options: CallOptions): WireRequest;
  parser(emit: (part: StreamPart) => void): WireParser;
}
