import type { DetailedHTMLProps, HTMLAttributes } from 'react';

type ElementProps<Extra> = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & Extra;

/** The toolkit's tags as JSX knows them; only webview/ui renders them. */
declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'vscode-button': ElementProps<{ appearance?: 'primary' | 'secondary' | 'icon'; disabled?: boolean }>;
      'vscode-text-field': ElementProps<{ value?: string; placeholder?: string; disabled?: boolean; maxlength?: number }>;
      'vscode-dropdown': ElementProps<{ value?: string; disabled?: boolean }>;
      'vscode-option': ElementProps<{ value?: string; selected?: boolean }>;
      'vscode-divider': ElementProps<{ role?: 'separator' | 'presentation' }>;
    }
  }
}
