import { memo, useRef } from 'react';
import type { KeyboardEvent, MouseEvent } from 'react';
import type { Token } from 'marked';
import { useBridge } from '../../bridge/bridgeContext';
import { blockHtmlCache } from '../../markdown/blockHtmlCache';
import { IncrementalBlocks } from '../../markdown/markdownBlocks';
import { CodeBlock } from './CodeBlock';

export interface MarkdownProps {
  text: string;
  /** The text is still growing: its last block is shown as text until it closes (or the stream ends). */
  streaming: boolean;
}

/**
 * Model markdown, block by block. Finished blocks come from the cache and their
 * components are memoized by source. The growing last block of a streaming reply is
 * shown as its text, which a delta only extends (no markdown, no sanitizing, no HTML
 * to parse per delta); it is rendered as markdown once the next block begins.
 * Links never navigate: a click asks the host to open the URL (it confirms first), and a
 * workspace file named in code style (`src/a.ts:12`) opens in the editor at that line.
 */
export function Markdown({ text, streaming }: MarkdownProps) {
  const bridge = useBridge();
  const splitter = useRef<IncrementalBlocks | null>(null);
  splitter.current ??= new IncrementalBlocks();
  const blocks = splitter.current.update(text, streaming);

  const openLinkAt = (target: EventTarget, prevent: () => void): void => {
    const element = target instanceof Element ? target : null;
    const file = element?.closest('[data-file]');
    const path = file?.getAttribute('data-file');
    if (file && path) {
      prevent();
      const startLine = Number(file.getAttribute('data-start-line'));
      const endLine = Number(file.getAttribute('data-end-line'));
      void bridge.call('file.open', startLine > 0 ? { path, range: { startLine, endLine: Math.max(startLine, endLine) } } : { path });
      return;
    }
    const href = element?.closest('[data-href]')?.getAttribute('data-href');
    if (!href) return;
    prevent();
    void bridge.openLink(href);
  };

  return (
    <div
      className="markdown"
      onClick={(event: MouseEvent) => openLinkAt(event.target, () => event.preventDefault())}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === 'Enter' || event.key === ' ') openLinkAt(event.target, () => event.preventDefault());
      }}
    >
      {blocks.map((block, index) => {
        if (block.kind === 'code') return <CodeBlock key={index} code={block.code} language={block.language} />;
        if (streaming && index === blocks.length - 1) return <OpenBlock key={index} raw={block.raw} />;
        return <HtmlBlock key={index} raw={block.raw} tokens={block.tokens} />;
      })}
    </div>
  );
}

/** The block a reply is still writing, as the text it has so far. */
function OpenBlock({ raw }: { raw: string }) {
  return (
    <div className="md-block md-open" data-testid="md-open">
      <p>{raw.trimEnd()}</p>
    </div>
  );
}

interface HtmlBlockProps {
  raw: string;
  tokens: Token[];
}

/** Sanitized HTML of one finished block (see sanitizeHtml); same source, no re-render. */
const HtmlBlock = memo(
  function HtmlBlock({ raw, tokens }: HtmlBlockProps) {
    return <div className="md-block" dangerouslySetInnerHTML={{ __html: blockHtmlCache.html(raw, tokens, true) }} />;
  },
  (before, after) => before.raw === after.raw,
);
