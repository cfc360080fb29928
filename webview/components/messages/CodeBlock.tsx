import * as l10n from '@vscode/l10n';
import { memo, useEffect, useMemo, useState } from 'react';
import { errorMessage } from '../../../src/protocol/busError';
import { useBridge } from '../../bridge/bridgeContext';
import { highlightCode } from '../../markdown/highlight';
import { IconButton } from '../../ui/IconButton';

export interface CodeBlockProps {
  code: string;
  language: string | undefined;
}

const COPIED_NOTE_MS = 1500;

/** A fenced code block with Copy and Insert-at-cursor. The highlighter escapes everything it emits. */
export const CodeBlock = memo(function CodeBlock({ code, language }: CodeBlockProps) {
  const bridge = useBridge();
  const [copied, setCopied] = useState(false);
  const html = useMemo(() => highlightCode(code, language), [code, language]);

  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), COPIED_NOTE_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = (): void => {
    navigator.clipboard.writeText(code).then(
      () => setCopied(true),
      (err: unknown) => bridge.reportProblem(l10n.t('Copying the code failed: {0}', errorMessage(err))),
    );
  };

  return (
    <div className="code-block">
      <div className="code-block-bar">
        <span className="code-block-language">{language ?? l10n.t('text')}</span>
        <span className="code-block-actions">
          {copied ? <span className="code-block-copied" role="status">{l10n.t('Copied')}</span> : null}
          <IconButton icon="copy" label={l10n.t('Copy code')} onClick={copy} testId="copy-code" />
          <IconButton
            icon="insert"
            label={l10n.t('Insert at cursor')}
            onClick={() => void bridge.call('code.insert', language ? { code, language } : { code })}
            testId="insert-code"
          />
        </span>
      </div>
      {/* Focusable, so a keyboard can scroll a long line into view. */}
      <pre className="md-code" tabIndex={0}>
        <code dangerouslySetInnerHTML={{ __html: html }} />
      </pre>
    </div>
  );
});
