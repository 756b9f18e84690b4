import type { DraftItem, DraftVariant } from '../draft';
import { descriptionOf, imagesOf, nameOf, type SchemaScope, variantsFromOffers, warn } from './schema-fields';
import { hasType, isNode, localName, type SchemaNode } from './schema-graph';
import { cleanText } from './text';
import { optionLabel } from './values';

const PRODUCT_TYPES = ['Product', 'IndividualProduct', 'ProductModel', 'SomeProducts'];

/** Properties a ProductGroup's variants commonly differ by, when the group does not say (`variesBy`). */
const USUAL_AXES = ['size', 'color', 'material', 'pattern', 'suggestedAge', 'suggestedGender'];

const categoryOf = (scope: SchemaScope, node: SchemaNode): string[] => {
  const category = scope.graph.text(node, 'category');
  if (category === null || /^\d+$/.test(category)) return []; // a bare Google taxonomy id names nothing
  return category
    .split('>')
    .map((part) => cleanText(part))
    .filter((part) => part !== '');
};

/** The page's breadcrumb (BreadcrumbList) minus its home link and the product itself: a product page's category. */
const breadcrumbOf = (scope: SchemaScope, productName: string): string[] => {
  const list = scope.graph.ofType('BreadcrumbList')[0];
  if (!list) return [];
  const entries = scope.graph
    .nodes(list, 'itemListElement')
    .map((entry) => ({
      position: Number(scope.graph.text(entry, 'position') ?? Number.NaN),
      name:
        scope.graph.text(entry, 'name') ??
        scope.graph.nodes(entry, 'item').map((i) => scope.graph.text(i, 'name'))[0] ??
        null,
    }))
    .filter((e): e is { position: number; name: string } => e.name !== null)
    .sort((a, b) => (Number.isNaN(a.position) || Number.isNaN(b.position) ? 0 : a.position - b.position))
    .map((e) => cleanText(e.name));
  if (
    entries.length > 0 &&
    /^(home|homepage|start|startseite|accueil|inicio|home page)$/i.test(entries[0] as string)
  )
    entries.shift();
  if (entries.at(-1)?.toLowerCase() === productName.toLowerCase()) entries.pop();
  return entries;
};

/** The text of a variant's value for one axis (`size` may be a SizeSpecification with a `name`). */
const axisValue = (scope: SchemaScope, node: SchemaNode, axis: string): string | null => {
  const value = scope.graph.text(node, axis);
  return value === null ? null : cleanText(value) || null;
};

const stripPrefix = (name: string, prefix: string): string => {
  if (!name.toLowerCase().startsWith(prefix.toLowerCase())) return name;
  const rest = name
    .slice(prefix.length)
    .replace(/^[\s\-–—:/|,(]+/, '')
    .replace(/\)$/, '')
    .trim();
  return rest === '' ? name : rest;
};

interface Built {
  readonly item: DraftItem;
  readonly consumed: readonly SchemaNode[];
}

const groupItem = (scope: SchemaScope, group: SchemaNode, members: SchemaNode[]): Built | undefined => {
  const { graph } = scope;
  const name = nameOf(scope, group) ?? (members[0] ? nameOf(scope, members[0]) : null);
  if (name === null) {
    warn(scope, 'missing_name', 'a product group has no name and was skipped', 'name');
    return undefined;
  }
  const declared = graph
    .values(group, 'variesBy')
    .filter((v): v is string => typeof v === 'string')
    .map(localName);
  const axes = (declared.length > 0 ? declared : USUAL_AXES).filter((axis) => {
    const values = new Set(members.map((m) => axisValue(scope, m, axis)));
    return declared.length > 0 ? members.some((m) => axisValue(scope, m, axis) !== null) : values.size > 1;
  });
  const groupImages = imagesOf(scope, group);
  let groupOffer: DraftVariant | undefined;
  const variants: DraftVariant[] = members.map((member, index) => {
    const own = variantsFromOffers(scope, member, name).variants[0] as DraftVariant;
    groupOffer ??=
      own.price === null ? (variantsFromOffers(scope, group, name).variants[0] as DraftVariant) : undefined;
    const fallback = own.price === null && groupOffer ? groupOffer : own;
    const options = Object.fromEntries(
      axes
        .map((axis) => [optionLabel(axis), axisValue(scope, member, axis)] as const)
        .filter((e): e is [string, string] => e[1] !== null),
    );
    const memberName = nameOf(scope, member);
    const variantName =
      Object.values(options).join(' / ') ||
      (memberName && memberName !== name ? stripPrefix(memberName, name) : null) ||
      own.sku ||
      `Variant ${index + 1}`;
    return {
      name: variantName,
      options,
      price: own.price ?? fallback.price,
      pricing: own.price !== null ? own.pricing : fallback.pricing,
      sku: own.sku,
      gtin: own.gtin,
      images: imagesOf(scope, member).filter((i) => !groupImages.some((g) => g.url === i.url)),
    };
  });
  return {
    item: {
      kind: 'item',
      categoryPath: categoryOf(scope, group),
      name,
      description: descriptionOf(scope, group) ?? (members[0] ? descriptionOf(scope, members[0]) : null),
      brand: brandOf(scope, group) ?? (members[0] ? brandOf(scope, members[0]) : null),
      tags: [],
      calories: null,
      images: groupImages.length > 0 ? groupImages : members[0] ? imagesOf(scope, members[0]) : [],
      optionNames: axes.map(optionLabel),
      variants,
    },
    consumed: [group, ...members],
  };
};

const brandOf = (scope: SchemaScope, node: SchemaNode): string | null => {
  const brand = scope.graph.text(node, 'brand');
  return brand === null ? null : cleanText(brand) || null;
};

const productItem = (scope: SchemaScope, node: SchemaNode): DraftItem | undefined => {
  const name = nameOf(scope, node);
  if (name === null) {
    warn(scope, 'missing_name', 'a product has no name and was skipped', 'name');
    return undefined;
  }
  const { variants, optionNames } = variantsFromOffers(scope, node, name);
  return {
    kind: 'item',
    categoryPath: categoryOf(scope, node),
    name,
    description: descriptionOf(scope, node),
    brand: brandOf(scope, node),
    tags: [],
    calories: null,
    images: imagesOf(scope, node),
    optionNames,
    variants,
  };
};

/**
 * Products of a page's schema.org data: a `ProductGroup` with its `hasVariant` Products (or Products that
 * point at it with `isVariantOf`) is one item whose variants differ by `variesBy` (`size`, `color`); a
 * Product with several offers has one variant per offer; any other Product is one item. On a page with one
 * product and no `category`, the breadcrumb names its category.
 */
export const productsFromGraph = (scope: SchemaScope): DraftItem[] => {
  const { graph } = scope;
  const consumed = new Set<SchemaNode>();
  const items: DraftItem[] = [];
  const groups = [
    ...new Set(graph.ofType('ProductGroup').map((g) => (g.id ? (graph.resolve(g.id) ?? g) : g))),
  ];
  const products = graph
    .ofType(...PRODUCT_TYPES)
    .filter((p) => !hasType(p, 'ProductGroup') && p.props.size > 0);
  for (const group of groups) {
    if (consumed.has(group)) continue;
    const members = new Set(graph.nodes(group, 'hasVariant').filter((m) => m.props.size > 0));
    for (const product of products) {
      if (
        graph
          .values(product, 'isVariantOf')
          .some((v) => v === group || (isNode(v) && group.id !== null && v.id === group.id))
      ) {
        members.add(product);
      }
    }
    const built = members.size > 0 ? groupItem(scope, group, [...members]) : undefined;
    if (built) {
      items.push(built.item);
      for (const node of built.consumed) consumed.add(node);
    } else if (members.size === 0) {
      const single = productItem(scope, group);
      consumed.add(group);
      if (single) items.push(single);
    }
  }
  for (const product of products) {
    if (consumed.has(product)) continue;
    consumed.add(product);
    const item = productItem(scope, product);
    if (item) items.push(item);
  }
  const [only] = items;
  if (items.length === 1 && only && only.categoryPath.length === 0) {
    return [{ ...only, categoryPath: breadcrumbOf(scope, only.name) }];
  }
  return items;
};
