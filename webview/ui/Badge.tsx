import type { ReactNode } from 'react';

/**
 * A count or short status. Drawn with the theme's badge colours rather than the
 * toolkit's badge, whose template sets a style attribute that the webview's CSP blocks
 * (and reports as a violation on every page load).
 */
export function Badge({ children, title, testId }: { children: ReactNode; title?: string; testId?: string }) {
  return (
    <span className="ui-badge" title={title} data-testid={testId}>
      {children}
    </span>
  );
}
