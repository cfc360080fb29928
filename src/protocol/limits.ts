/**
 * Size caps the schemas enforce, so one huge payload cannot stall the webview. The host
 * trims to these before sending (see capToolOutput); anything larger is rejected.
 */
export const MAX_TOOL_OUTPUT_CHARS = 20_000;
/** Before/after text of a proposed change; larger files are sent without it. */
export const MAX_CHANGE_TEXT_CHARS = 200_000;
/** About 5 MB of image once decoded. */
export const MAX_IMAGE_BASE64_CHARS = 7_000_000;
export const MAX_IMAGES_PER_MESSAGE = 10;
/** Event rules shown on one turn, and the text of each of their actions. */
export const MAX_FIRED_RULES = 100;
export const MAX_RULE_TEXT_CHARS = 2_000;

/** The tail of a running command's output that the view shows live. */
export const MAX_LIVE_OUTPUT_CHARS = 8_000;

/**
 * Trims tool output to the cap, keeping the head and the tail (errors tend to be at the
 * end of command output) with a marker giving the full length.
 */
export function capToolOutput(
  text: string,
  max: number = MAX_TOOL_OUTPUT_CHARS,
): { output: string; truncated: boolean } {
  if (text.length <= max) return { output: text, truncated: false };
  const marker = `\n… [truncated: ${text.length} characters in all] …\n`;
  const keep = Math.max(0, max - marker.length);
  const head = Math.ceil(keep / 2);
  const tail = keep - head;
  const output = text.slice(0, head) + marker + (tail > 0 ? text.slice(text.length - tail) : '');
  return { output: output.slice(0, max), truncated: true };
}
