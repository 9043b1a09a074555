/**
 * The client scripts' only way to put text on a page: elements built with `textContent`, never
 * with markup strings, so a commit subject such as "<script>" stays text.
 *
 * @module
 */
import { nameParts } from '../format.js';

/** An element with attributes and children (strings become text nodes). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined) element.append(child);
  return element;
}

/** A link to an outside page, only for http(s) addresses; anything else becomes plain text. */
export function externalLink(url: string | undefined, text: string, className = ''): Node {
  if (!url || !/^https?:\/\//i.test(url)) return el('span', { class: className }, text);
  return el('a', { href: url, class: className }, text);
}

/** Marks the page interactive, and when (ms since navigation): tests and the browser benchmark wait for it. */
export function markReady(): void {
  document.body.dataset['readyAt'] = performance.now().toFixed(0);
  document.body.dataset['ready'] = 'true';
}

/** A name as text that may break where `nameParts` cuts it. */
export function breakableText(name: string): (Node | string)[] {
  return nameParts(name).flatMap((part, i) => (i === 0 ? [part] : [document.createElement('wbr'), part]));
}
