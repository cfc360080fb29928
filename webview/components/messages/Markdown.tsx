import { memo, useRef } from 'react';
import type { KeyboardEvent, MouseEvent } from 'react';
import type { Token } from 'marked';
import { useBridge } from '../../bridge/bridgeContext';
import { blockHtmlCache } from '../../markdown/blockHtmlCache';
import { IncrementalBlocks } from '../../markdown/markdownBlocks';
import { CodeBlock } from './CodeBlock';

export interface MarkdownProps {
  text: string;
  /** The text is still growing: its last block is re-rendered on each delta and not cached. */
  streaming: boolean;
}

/**
 * Model markdown, block by block. Finished blocks come from the cache and their
 * components are memoized by source, so a delta re-renders only the growing last block.
 * Links never navigate: a click asks the host to open the URL (it confirms first).
 */
export function Markdown({ text, streaming }: MarkdownProps) {
  const bridge = useBridge();
  const splitter = useRef<IncrementalBlocks | null>(null);
  splitter.current ??= new IncrementalBlocks();
  const blocks = splitter.current.update(text);

  const openLinkAt = (target: EventTarget, prevent: () => void): void => {
    const link = target instanceof Element ? target.closest('[data-href]') : null;
    const href = link?.getAttribute('data-href');
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
        const final = !streaming || index < blocks.length - 1;
        return block.kind === 'code' ? (
          <CodeBlock key={index} code={block.code} language={block.language} />
        ) : (
          <HtmlBlock key={index} raw={block.raw} tokens={block.tokens} final={final} />
        );
      })}
    </div>
  );
}

interface HtmlBlockProps {
  raw: string;
  tokens: Token[];
  final: boolean;
}

/** Sanitized HTML of one block (see sanitizeHtml); same source, no re-render. */
const HtmlBlock = memo(
  function HtmlBlock({ raw, tokens, final }: HtmlBlockProps) {
    return <div className="md-block" dangerouslySetInnerHTML={{ __html: blockHtmlCache.html(raw, tokens, final) }} />;
  },
  (before, after) => before.raw === after.raw && before.final === after.final,
);
