import {
  provideVSCodeDesignSystem,
  vsCodeButton,
  vsCodeDivider,
  vsCodeDropdown,
  vsCodeOption,
  vsCodeTextField,
} from '@vscode/webview-ui-toolkit';

let registered = false;

/**
 * Defines the toolkit's custom elements, once per page. Only webview/ui knows which
 * library draws the primitives; swapping it means changing this folder only.
 */
export function registerToolkit(): void {
  if (registered) return;
  registered = true;
  provideVSCodeDesignSystem().register(
    vsCodeButton(),
    vsCodeDivider(),
    vsCodeDropdown(),
    vsCodeOption(),
    vsCodeTextField(),
  );
  // The toolkit starts following VS Code's theme on the window's load event, but the page adds
  // this script only after it (src/vscode/webviewHtml.ts): without another load its elements
  // keep their dark defaults in every theme. VS Code's own load handler acts on the first only.
  if (document.readyState === 'complete') window.dispatchEvent(new Event('load'));
}
