export function Divider() {
  return <vscode-divider role="separator" />;
}
