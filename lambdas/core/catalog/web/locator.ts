import type { Element } from 'domhandler';
import { isTag } from 'domhandler';

/**
 * Where an element is on a page, for a reviewer: the service writes it into a drafted item's provenance
 * and the operations console finds the element again by it, on the page parsed the same way (htmlparser2
 * with its default options; console/src/sources/page-outline.ts). Only domhandler: it runs in both.
 */

/**
 * A CSS-like path to an element for a reviewer (`#menu > ul > li:nth-of-type(3)`): from the nearest ancestor
 * with an id, or from `body`, at most 10 steps.
 */
export const locatorOf = (element: Element): string => {
  const steps: string[] = [];
  let current: Element | null = element;
  while (current && current.name !== 'body' && current.name !== 'html' && steps.length < 10) {
    const id = current.attribs.id;
    if (id && /^[A-Za-z][\w-]*$/.test(id)) {
      steps.unshift(`#${id}`);
      return steps.join(' > ');
    }
    const parent: Element | null = current.parent && isTag(current.parent) ? current.parent : null;
    const { position, of } = typePosition(current);
    steps.unshift(of > 1 ? `${current.name}:nth-of-type(${position})` : current.name);
    current = parent;
  }
  return steps.join(' > ');
};

const positions = new WeakMap<Element, { position: number; of: number }>();

/** An element's 1-based position among its parent's children of its type, counted once per parent. */
const typePosition = (element: Element): { position: number; of: number } => {
  const known = positions.get(element);
  if (known) return known;
  const siblings = (element.parent?.children ?? [element]).filter(
    (c): c is Element => isTag(c) && c.name === element.name,
  );
  siblings.forEach((sibling, index) => {
    positions.set(sibling, { position: index + 1, of: siblings.length });
  });
  return positions.get(element) ?? { position: 1, of: 1 };
};
