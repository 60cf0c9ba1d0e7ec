import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways on its own when wider than the screen (a 390-px phone), instead of
 * widening the page. The scrolling box is a named region that takes focus, so it scrolls with the
 * keyboard too (axe's scrollable-region-focusable).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
