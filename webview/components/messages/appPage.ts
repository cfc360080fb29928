/** What an MCP App's frame is given of this page: its look, and the nonce its scripts run with. */
import { MAX_APP_HEIGHT } from './mcpAppSession';

/**
 * The app's page with this page's app nonce on every script and style element: the frame's
 * document inherits this page's policy, which runs only scripts and styles that carry it. The
 * app's own policy (in its page, from Keel) applies as well.
 */
export function stampNonce(html: string, nonce: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const el of doc.querySelectorAll('script, style')) el.setAttribute('nonce', nonce);
  return `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`;
}

export function appTheme(doc: Document): 'light' | 'dark' {
  const c = doc.body.classList;
  return c.contains('vscode-light') || c.contains('vscode-high-contrast-light') ? 'light' : 'dark';
}

/** The ext-apps style variables, from VS Code's theme variables of this page. */
const styleVariables: Record<string, string> = {
  '--color-background-primary': '--vscode-editor-background',
  '--color-background-secondary': '--vscode-sideBar-background',
  '--color-text-primary': '--vscode-foreground',
  '--color-text-secondary': '--vscode-descriptionForeground',
  '--color-text-danger': '--vscode-errorForeground',
  '--color-border-primary': '--vscode-widget-border',
  '--color-ring-primary': '--vscode-focusBorder',
  '--font-sans': '--vscode-font-family',
  '--font-mono': '--vscode-editor-font-family',
};

export interface AppToolInfo {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: Record<string, unknown>;
}

/** The host context an app gets at `ui/initialize` (and in part when the theme changes). */
export function appHostContext(doc: Document, tool: AppToolInfo, width: number): Record<string, unknown> & { styles: { variables: Record<string, string> } } {
  const computed = doc.defaultView?.getComputedStyle(doc.documentElement);
  const variables: Record<string, string> = {};
  for (const [key, from] of Object.entries(styleVariables)) {
    const value = computed?.getPropertyValue(from).trim();
    if (value) variables[key] = value;
  }
  return {
    toolInfo: { tool },
    theme: appTheme(doc),
    styles: { variables },
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    containerDimensions: { width, maxHeight: MAX_APP_HEIGHT },
    locale: doc.documentElement.lang || 'en',
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: 'desktop',
    userAgent: 'Keel',
  };
}
