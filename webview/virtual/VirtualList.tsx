import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { bottomScrollTop, nextStick, prefixOffsets, visibleRange } from './virtualMath';
import type { StickState } from './virtualMath';

/** Pixels of rows kept mounted above and below the viewport. */
const OVERSCAN = 800;

export interface VirtualListProps {
  ids: readonly string[];
  renderRow: (id: string) => ReactNode;
  /** Height assumed for a row until it has been measured. */
  estimate?: number;
  label: string;
  /** Shown over the list when the person has scrolled away from the newest row. */
  renderJumpButton: (jump: () => void) => ReactNode;
}

/**
 * Mounts only the rows in and near the viewport, between two spacers sized from measured
 * (or estimated) row heights, so a long conversation opens and scrolls like a short one.
 * It follows new content at the bottom until the person scrolls up.
 */
export function VirtualList({ ids, renderRow, estimate = 72, label, renderJumpButton }: VirtualListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const stick = useRef<StickState>({ stick: true, lastTop: 0 });
  const [layoutVersion, setLayoutVersion] = useState(0);
  const [viewport, setViewport] = useState({ top: 0, height: 0 });
  const [stuck, setStuck] = useState(true);

  const bumpLayout = useCallback(() => setLayoutVersion((version) => version + 1), []);
  const observer = useRowObserver(heights, bumpLayout);

  // layoutVersion is the signal that a measured height changed inside the ref'd map.
  const offsets = useMemo(
    () => prefixOffsets(ids.map((id) => heights.current.get(id) ?? estimate)),
    [ids, layoutVersion, estimate],
  );
  const total = offsets[ids.length] ?? 0;
  const viewportHeight = viewport.height > 0 ? viewport.height : window.innerHeight;
  const top = stuck ? bottomScrollTop(total, viewportHeight) : viewport.top;
  const range = visibleRange(offsets, top, viewportHeight, OVERSCAN);

  const setStick = useCallback((next: StickState) => {
    stick.current = next;
    setStuck(next.stick);
  }, []);

  const readViewport = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    setStick(nextStick(stick.current, element.scrollTop, element.scrollHeight, element.clientHeight));
    setViewport((previous) =>
      previous.top === element.scrollTop && previous.height === element.clientHeight
        ? previous
        : { top: element.scrollTop, height: element.clientHeight },
    );
  }, [setStick]);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const sizeObserver = new ResizeObserver(() => readViewport());
    sizeObserver.observe(element);
    return () => sizeObserver.disconnect();
  }, [readViewport]);

  // After every render: while following, keep the newest content in view.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || !stick.current.stick) return;
    element.scrollTop = element.scrollHeight;
    stick.current = { stick: true, lastTop: element.scrollTop };
  });

  // A wheel or key press upwards stops following at once, before the next delta pins the list again.
  const stopFollowing = useCallback(() => {
    if (stick.current.stick) setStick({ ...stick.current, stick: false });
  }, [setStick]);

  const jump = useCallback(() => {
    setStick({ stick: true, lastTop: 0 });
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [setStick]);

  // Drop heights of rows that are gone (a new or resumed conversation).
  useLayoutEffect(() => {
    if (heights.current.size <= ids.length * 2 + 100) return;
    const keep = new Set(ids);
    for (const id of heights.current.keys()) if (!keep.has(id)) heights.current.delete(id);
  }, [ids]);

  return (
    <div className="virtual-list-frame">
      <div
        ref={scroller}
        className="virtual-list"
        role="log"
        aria-live="polite"
        aria-relevant="additions"
        aria-label={label}
        tabIndex={0}
        onScroll={readViewport}
        onWheel={(event) => {
          if (event.deltaY < 0) stopFollowing();
        }}
        onKeyDown={(event) => {
          if (['ArrowUp', 'PageUp', 'Home'].includes(event.key)) stopFollowing();
        }}
      >
        <div className="virtual-spacer" style={{ height: offsets[range.start] ?? 0 }} />
        {ids.slice(range.start, range.end).map((id) => (
          <Row key={id} id={id} observer={observer} renderRow={renderRow} />
        ))}
        <div className="virtual-spacer" style={{ height: total - (offsets[range.end] ?? total) }} />
      </div>
      {!stuck && ids.length > 0 ? renderJumpButton(jump) : null}
    </div>
  );
}

interface RowProps {
  id: string;
  observer: ResizeObserver | undefined;
  renderRow: (id: string) => ReactNode;
}

const Row = memo(function Row({ id, observer, renderRow }: RowProps) {
  const attach = useCallback(
    (element: HTMLDivElement | null) => {
      if (!element || !observer) return undefined;
      observer.observe(element);
      return () => observer.unobserve(element);
    },
    [observer],
  );
  return (
    <div ref={attach} className="virtual-row" data-row-id={id}>
      {renderRow(id)}
    </div>
  );
});

/** One ResizeObserver for all mounted rows; a changed height bumps the layout. */
function useRowObserver(heights: { current: Map<string, number> }, onChange: () => void): ResizeObserver | undefined {
  const [observer] = useState(() => {
    if (typeof ResizeObserver === 'undefined') return undefined;
    return new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        const id = (entry.target as HTMLElement).dataset.rowId;
        if (!id) continue;
        const height = entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height;
        if (Math.abs((heights.current.get(id) ?? -1) - height) > 0.5) {
          heights.current.set(id, height);
          changed = true;
        }
      }
      if (changed) onChange();
    });
  });
  useLayoutEffect(() => () => observer?.disconnect(), [observer]);
  return observer;
}
