/** A codicon by name (https://microsoft.github.io/vscode-codicons/); decorative, so hidden from screen readers. */
export function Icon({ name, spin = false }: { name: string; spin?: boolean }) {
  return <span className={`codicon codicon-${name}${spin ? ' codicon-modifier-spin' : ''}`} aria-hidden="true" />;
}
