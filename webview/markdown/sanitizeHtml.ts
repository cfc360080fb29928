import * as l10n from '@vscode/l10n';
import DOMPurify from 'dompurify';
import { fileReference } from './fileReferences';

/** Classes the renderer itself produces; any other class in model HTML is dropped so it cannot dress up as UI. */
const KEPT_CLASS = /^(?:tok-|language-|md-)/;

const PURIFY_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'button', 'textarea', 'select', 'option', 'dialog', 'label'],
  FORBID_ATTR: ['style', 'id', 'name', 'target', 'srcset', 'formaction'],
  ALLOW_DATA_ATTR: false,
};

/** Only these links are offered, and only through `link.open` (the host confirms and opens them outside). */
export function openableUrl(href: string | null): string | undefined {
  // Relative, malformed or scheme-less links are nothing the chat can open.
  if (!href || !URL.canParse(href)) return undefined;
  const url = new URL(href);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}

/**
 * Model HTML → HTML safe to put in the page. DOMPurify removes scripts, event handlers
 * and dangerous URLs; a second pass, in an inert document so nothing loads, turns links
 * into `data-href` anchors (clicks go through the host), images into click-to-open
 * links (remote images are never fetched) and drops anything else that could pass for UI.
 */
export function sanitizeHtml(html: string): string {
  const clean = DOMPurify.sanitize(html, PURIFY_CONFIG);
  const doc = new DOMParser().parseFromString(`<body>${clean}</body>`, 'text/html');
  for (const element of [...doc.body.querySelectorAll('*')]) {
    const tag = element.tagName.toLowerCase();
    if (tag === 'a') rewriteLink(element);
    else if (tag === 'code' && element.parentElement?.tagName.toLowerCase() !== 'pre') linkFileReference(element, element.textContent ?? '');
    else if (tag === 'img') replaceImage(element);
    else if (tag === 'input') lockInput(element);
    keepOwnClasses(element);
  }
  return doc.body.innerHTML;
}

function rewriteLink(anchor: Element): void {
  const href = anchor.getAttribute('href');
  const url = openableUrl(href);
  anchor.removeAttribute('href');
  anchor.removeAttribute('rel');
  if (!url) {
    // A relative link to a workspace file (`[the parser](src/parse.ts#L40)`) opens it in the editor.
    if (href && linkFileReference(anchor, href)) return;
    anchor.replaceWith(...anchor.childNodes); // keep the words, lose the link
    return;
  }
  anchor.setAttribute('data-href', url);
  anchor.setAttribute('role', 'link');
  anchor.setAttribute('tabindex', '0');
  anchor.setAttribute('title', url);
  anchor.classList.add('md-link');
}

/**
 * Marks `element` as a link to the workspace file `text` names (`src/a.ts:12`); a click asks the
 * host to open it, which refuses paths outside the workspace. False when `text` names no file.
 */
function linkFileReference(element: Element, text: string): boolean {
  const reference = fileReference(text);
  if (!reference) return false;
  element.setAttribute('data-file', reference.path);
  if (reference.startLine !== undefined) {
    element.setAttribute('data-start-line', String(reference.startLine));
    element.setAttribute('data-end-line', String(reference.endLine ?? reference.startLine));
  }
  element.setAttribute('role', 'link');
  element.setAttribute('tabindex', '0');
  element.setAttribute('title', l10n.t('Open {0}', text.trim()));
  element.classList.add('md-file-link');
  return true;
}

function replaceImage(image: Element): void {
  const doc = image.ownerDocument;
  const url = openableUrl(image.getAttribute('src'));
  const alt = image.getAttribute('alt')?.trim() ?? '';
  if (!url) {
    const note = doc.createElement('span');
    note.className = 'md-image-skipped';
    note.textContent = alt ? l10n.t('{0} (not shown)', alt) : l10n.t('image (not shown)');
    image.replaceWith(note);
    return;
  }
  const link = doc.createElement('a');
  link.className = 'md-link md-image-link';
  link.setAttribute('data-href', url);
  link.setAttribute('role', 'link');
  link.setAttribute('tabindex', '0');
  link.setAttribute('title', l10n.t('Open {0} in the browser', url));
  link.textContent = l10n.t('{0} (click to load)', alt || new URL(url).hostname);
  image.replaceWith(link);
}

/** GFM task-list boxes stay as read-only checkboxes; any other input is removed. */
function lockInput(input: Element): void {
  if (input.getAttribute('type') !== 'checkbox') {
    input.remove();
    return;
  }
  input.setAttribute('disabled', '');
}

function keepOwnClasses(element: Element): void {
  if (!element.hasAttribute('class')) return;
  const kept = [...element.classList].filter((name) => KEPT_CLASS.test(name));
  if (kept.length > 0) element.setAttribute('class', kept.join(' '));
  else element.removeAttribute('class');
}
