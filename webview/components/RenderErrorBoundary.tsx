import * as l10n from '@vscode/l10n';
import { Component } from 'react';
import type { ErrorInfo, ReactNode } from 'react';
import { errorMessage } from '../../src/protocol/busError';
import type { LogFn } from '../../src/protocol/log';

interface Props {
  log: LogFn;
  children: ReactNode;
}

interface State {
  error: unknown;
}

/**
 * A rendering bug must not leave a blank view: say what broke, log it for the host,
 * and offer to draw again (the store still holds everything).
 */
export class RenderErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.log('error', `render failed: ${errorMessage(error)}${info.componentStack ?? ''}`);
  }

  override render(): ReactNode {
    if (this.state.error === null) return this.props.children;
    return (
      <div className="banner banner-error" role="alert" data-testid="render-error">
        <span className="banner-text">{l10n.t('The chat view hit a bug while drawing: {0}', errorMessage(this.state.error))}</span>
        <button type="button" className="plain-button" onClick={() => this.setState({ error: null })}>
          {l10n.t('Draw again')}
        </button>
      </div>
    );
  }
}
