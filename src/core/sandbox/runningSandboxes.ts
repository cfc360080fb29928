/**
 * How many sandboxed processes (commands, background jobs, local MCP servers) of this Keel are
 * going now: from the moment a run is prepared until it is released after the process exits.
 * A sandboxed process may rename the workspace's folders at any moment, so while one goes,
 * Keel's own writes must not go by name through programs that follow links (the editor's save).
 */
let going = 0;

/** Counts a run as going; the returned function ends it (once, however often it is called). */
export function noteSandboxGoing(): () => void {
  going++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    going--;
  };
}

/** Whether any sandboxed process of this Keel may be running now. */
export function sandboxedProcessesGoing(): boolean {
  return going > 0;
}
