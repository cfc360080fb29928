/**
 * "Working" indicator: the codicon spinner, whose stepped CSS transform runs on the
 * compositor. (The toolkit's progress ring animates an SVG stroke, repainted on the main
 * thread every frame: about an eighth of the main thread for as long as a run lasted.)
 */
export function ProgressRing({ label }: { label: string }) {
  return <span className="ui-progress-ring codicon codicon-loading codicon-modifier-spin" role="status" aria-label={label} title={label} />;
}
