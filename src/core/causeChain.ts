/** An error followed by its `cause`s, outermost first (at most six, so a cycle ends). */
export function causeChain(err: unknown): unknown[] {
  const out: unknown[] = [];
  let cur = err;
  for (let i = 0; i < 6 && cur; i++) {
    out.push(cur);
    cur = (cur as { cause?: unknown }).cause;
  }
  return out;
}
