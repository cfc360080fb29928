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
  // The toolkit reads VS Code's theme, and starts following its changes, on the window's load
  // event. This script is added after that event (the early view goes first), so without a
  // second one the pickers, fields and buttons keep the toolkit's dark defaults in every theme.
  // Only listeners that missed the real event are registered now.
  if (document.readyState === 'complete') window.dispatchEvent(new Event('load'));
}
