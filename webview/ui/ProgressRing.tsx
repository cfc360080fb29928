
export function ProgressRing({ label }: { label: string }) {
  return <vscode-progress-ring className="ui-progress-ring" aria-label={label} title={label} />;
}
