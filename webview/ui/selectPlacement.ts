/** Space kept between the list and the view's edges, in px. */
const MARGIN = 4;

/**
 * Puts a select's open list (fixed-positioned, so no scrolling or clipping parent cuts it) under
 * its button, or above it when there is more room there (the footer's pickers sit at the bottom
 * of the view): at least as wide as the button, at most as wide as the view, and as tall as the
 * room allows (it scrolls beyond). Set through the element's style object, which the page's
 * CSP allows (a style attribute it would block).
 */
export function placeSelectList(button: HTMLElement, list: HTMLElement): void {
  const anchor = button.getBoundingClientRect();
  const viewWidth = document.documentElement.clientWidth;
  const viewHeight = document.documentElement.clientHeight;
  const style = list.style;
  style.top = '';
  style.bottom = '';
  style.left = '0px';
  style.maxHeight = '';
  style.minWidth = `${Math.round(anchor.width)}px`;
  style.maxWidth = `${Math.max(0, viewWidth - 2 * MARGIN)}px`;
  const natural = list.scrollHeight;
  const below = viewHeight - anchor.bottom - MARGIN;
  const above = anchor.top - MARGIN;
  if (natural <= below || below >= above) {
    style.top = `${Math.round(anchor.bottom)}px`;
    style.maxHeight = `${Math.max(0, Math.floor(below))}px`;
  } else {
    style.bottom = `${Math.round(viewHeight - anchor.top)}px`;
    style.maxHeight = `${Math.max(0, Math.floor(above))}px`;
  }
  // Aligned with the button's left edge, moved left if it would run past the view's right edge.
  const width = list.offsetWidth;
  style.left = `${Math.round(Math.max(MARGIN, Math.min(anchor.left, viewWidth - MARGIN - width)))}px`;
}
