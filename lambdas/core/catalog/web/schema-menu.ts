import type { DraftItem, DraftModifierGroup } from '../draft';
import { absoluteUrl } from './html';
import {
  caloriesOf,
  descriptionOf,
  imagesOf,
  nameOf,
  type SchemaScope,
  variantsFromOffers,
  warn,
} from './schema-fields';
import { hasType, isNode, type SchemaNode } from './schema-graph';
import { dietTag, readPrice } from './values';

/** schema.org's FoodEstablishment and its subtypes: the nodes whose `hasMenu` names a menu. */
const FOOD_ESTABLISHMENTS = [
  'FoodEstablishment',
  'Restaurant',
  'Bakery',
  'BarOrPub',
  'Brewery',
  'CafeOrCoffeeShop',
  'Distillery',
  'FastFoodRestaurant',
  'IceCreamShop',
  'Winery',
  'LocalBusiness',
  'Organization',
];

const MAX_SECTION_DEPTH = 8;

/** A menu item's `menuAddOn`: a MenuSection of add-ons, or add-on MenuItems, as modifier groups. */
const modifierGroupsOf = (scope: SchemaScope, item: SchemaNode, itemName: string): DraftModifierGroup[] => {
  const groups: DraftModifierGroup[] = [];
  const loose: SchemaNode[] = [];
  for (const addOn of scope.graph.nodes(item, 'menuAddOn')) {
    if (hasType(addOn, 'MenuSection')) {
      const modifiers = scope.graph
        .nodes(addOn, 'hasMenuItem')
        .flatMap((m) => modifierOf(scope, m, itemName));
      if (modifiers.length > 0) groups.push({ name: nameOf(scope, addOn) ?? 'Add-ons', modifiers });
    } else {
      loose.push(addOn);
    }
  }
  const modifiers = loose.flatMap((m) => modifierOf(scope, m, itemName));
  if (modifiers.length > 0) groups.push({ name: 'Add-ons', modifiers });
  return groups;
};

const modifierOf = (scope: SchemaScope, node: SchemaNode, itemName: string) => {
  const name = nameOf(scope, node);
  if (name === null) return [];
  const offer = scope.graph.nodes(node, 'offers')[0];
  const raw = offer ? scope.graph.values(offer, 'price')[0] : undefined;
  if (typeof raw !== 'string' && typeof raw !== 'number') return [{ name, price: null }];
  const read = readPrice(raw, scope.context.currency);
  if (!read.ok) warn(scope, read.code, `${itemName}, add-on ${name}: ${read.message}`, 'price');
  return [{ name, price: read.ok ? read.price : null }];
};

/** One MenuItem as a catalog item, or undefined (with a warning) when it has no name. */
export const menuItemOf = (
  scope: SchemaScope,
  node: SchemaNode,
  categoryPath: readonly string[],
): DraftItem | undefined => {
  const name = nameOf(scope, node);
  if (name === null) {
    warn(
      scope,
      'missing_name',
      `a menu item${categoryPath.length ? ` in ${categoryPath.join(' > ')}` : ''} has no name and was skipped`,
      'name',
    );
    return undefined;
  }
  const { variants, optionNames } = variantsFromOffers(scope, node, name);
  const tags = scope.graph
    .values(node, 'suitableForDiet')
    .map((v) =>
      typeof v === 'string'
        ? dietTag(v)
        : isNode(v)
          ? dietTag(v.id ?? scope.graph.text(v, 'name') ?? '')
          : null,
    )
    .filter((t): t is string => t !== null);
  const modifierGroups = modifierGroupsOf(scope, node, name);
  return {
    kind: 'item',
    categoryPath,
    name,
    description: descriptionOf(scope, node),
    brand: null,
    tags: [...new Set(tags)],
    calories: caloriesOf(scope, node, name),
    images: imagesOf(scope, node),
    optionNames,
    variants,
    ...(modifierGroups.length > 0 ? { modifierGroups } : {}),
  };
};

/**
 * Menus of a page's schema.org data: every `Menu` → `hasMenuSection` (nested at any depth) → `hasMenuItem`,
 * items straight under a Menu, and sections or items the page lists outside any menu. Section names become
 * the category path; with several named menus (lunch, dinner) the menu's name is its first step.
 * `links` are menus a restaurant names by URL only (`"hasMenu": "https://.../menu"`).
 */
export const menusFromGraph = (scope: SchemaScope): { items: DraftItem[]; links: string[] } => {
  const { graph } = scope;
  const items: DraftItem[] = [];
  const visited = new Set<SchemaNode>();
  const links = new Set<string>();

  for (const place of graph.ofType(...FOOD_ESTABLISHMENTS)) {
    for (const value of [...graph.values(place, 'hasMenu'), ...graph.values(place, 'menu')]) {
      if (typeof value === 'string') {
        const url = absoluteUrl(value, scope.baseUrl);
        if (url) links.add(url);
      } else if (isNode(value) && !hasType(value, 'Menu') && value.props.size === 0 && value.id) {
        const url = absoluteUrl(value.id, scope.baseUrl);
        if (url) links.add(url);
      }
    }
  }

  const section = (node: SchemaNode, path: readonly string[], depth: number): void => {
    if (visited.has(node) || depth > MAX_SECTION_DEPTH) return;
    visited.add(node);
    const name = nameOf(scope, node);
    const here = name === null ? path : [...path, name];
    for (const item of graph.nodes(node, 'hasMenuItem')) {
      visited.add(item);
      const read = menuItemOf(scope, item, here);
      if (read) items.push(read);
    }
    for (const child of graph.nodes(node, 'hasMenuSection')) section(child, here, depth + 1);
  };

  const menus = graph.ofType('Menu').filter((m) => m.props.size > 0);
  const distinct = [...new Set(menus.map((m) => (m.id ? (graph.resolve(m.id) ?? m) : m)))];
  const named = distinct.filter((m) => nameOf(scope, m) !== null).length;
  for (const menu of distinct) {
    if (visited.has(menu)) continue;
    visited.add(menu);
    const menuName = nameOf(scope, menu);
    const prefix = distinct.length > 1 && named > 1 && menuName !== null ? [menuName] : [];
    for (const item of graph.nodes(menu, 'hasMenuItem')) {
      visited.add(item);
      const read = menuItemOf(scope, item, prefix);
      if (read) items.push(read);
    }
    const sections = graph.nodes(menu, 'hasMenuSection');
    for (const child of sections) section(child, prefix, 1);
    // A Menu that only says where it is (`{"@type": "Menu", "url": "/dinner"}`) is a menu to fetch.
    if (sections.length === 0 && graph.nodes(menu, 'hasMenuItem').length === 0) {
      const url = absoluteUrl(graph.text(menu, 'url') ?? graph.text(menu, 'mainEntityOfPage'), scope.baseUrl);
      if (url && url.replace(/#.*$/, '') !== scope.baseUrl.replace(/#.*$/, '')) links.add(url);
    }
  }
  const addOns = addOnsOf(scope);
  for (const orphan of graph.ofType('MenuSection')) {
    if (!visited.has(orphan) && orphan.props.size > 0 && !addOns.has(orphan)) section(orphan, [], 1);
  }
  for (const orphan of graph.ofType('MenuItem')) {
    if (visited.has(orphan) || orphan.props.size === 0 || addOns.has(orphan)) continue;
    visited.add(orphan);
    const read = menuItemOf(scope, orphan, []);
    if (read) items.push(read);
  }
  return { items, links: [...links] };
};

/** Add-on sections and items belong to their menu item, not to the menu. */
const addOnsOf = (scope: SchemaScope): Set<SchemaNode> => {
  const addOns = new Set<SchemaNode>();
  for (const item of scope.graph.ofType('MenuItem')) {
    for (const addOn of scope.graph.nodes(item, 'menuAddOn')) {
      addOns.add(addOn);
      for (const member of scope.graph.nodes(addOn, 'hasMenuItem')) addOns.add(member);
    }
  }
  return addOns;
};
