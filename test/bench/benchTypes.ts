/** One measurement. `run` is timed by the runner unless it returns its own number (ms). */
export interface Bench<State = unknown> {
  name: string;
  /** Human-readable target, e.g. "< 10 ms". */
  target: string;
  /** The number the median must stay under to meet the target. */
  limit: number;
  /** Unit of `limit` and of what `run` returns: defaults to ms. */
  unit?: string;
  /** How many measured runs (median is reported); defaults to 7. */
  runs?: number;
  /** Unmeasured warm-up runs; defaults to 1. */
  warmup?: number;
  setup?(): Promise<State> | State;
  run(state: State): Promise<number | void> | number | void;
  teardown?(state: State): Promise<void> | void;
}

export interface BenchSuite {
  name: string;
  benches: Bench<any>[];
}
