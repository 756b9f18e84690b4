import type { DraftImage, DraftVariant } from '../draft';
import { absoluteUrl } from './html';
import { hasType, isNode, type SchemaGraph, type SchemaNode } from './schema-graph';
import { cleanDescription, cleanText } from './text';
import type { WebReadContext, WebWarning } from './types';
import { currencyCode, readCalories, readDimension, readGtin, readPrice, uniqueImages } from './values';

/** What the schema.org mappers share while reading one page. */
export interface SchemaScope {
  readonly graph: SchemaGraph;
  readonly context: WebReadContext;
  /** The page's base URL: relative image URLs resolve against it. */
  readonly baseUrl: string;
  readonly warnings: WebWarning[];
}

export const warn = (scope: SchemaScope, code: WebWarning['code'], message: string, field?: string): void => {
  scope.warnings.push({ code, message, url: scope.baseUrl, ...(field ? { field } : {}) });
};

export const nameOf = (scope: SchemaScope, node: SchemaNode): string | null => {
  const name = scope.graph.text(node, 'name');
  const cleaned = name === null ? '' : cleanText(name);
  return cleaned === '' ? null : cleaned;
};

export const descriptionOf = (scope: SchemaScope, node: SchemaNode): string | null =>
  cleanDescription(scope.graph.text(node, 'description'));

/** `image`: URL strings, ImageObjects (`url` / `contentUrl`, `width`, `height`) or lists of them. */
export const imagesOf = (scope: SchemaScope, node: SchemaNode, property = 'image'): DraftImage[] => {
  const images: DraftImage[] = [];
  for (const value of scope.graph.values(node, property)) {
    if (typeof value === 'string') {
      const url = absoluteUrl(value, scope.baseUrl);
      if (url) images.push({ url, width: null, height: null });
    } else if (isNode(value)) {
      const url = absoluteUrl(
        scope.graph.text(value, 'url') ?? scope.graph.text(value, 'contentUrl'),
        scope.baseUrl,
      );
      if (url) {
        images.push({
          url,
          width: readDimension(scope.graph.values(value, 'width')[0]),
          height: readDimension(scope.graph.values(value, 'height')[0]),
        });
      }
    }
  }
  return uniqueImages(images);
};

const GTIN_PROPERTIES = ['gtin14', 'gtin13', 'gtin12', 'gtin8', 'gtin', 'isbn'] as const;

/** The first valid GTIN of `gtin8/12/13/14` / `gtin`; an invalid one is a warning. */
export const gtinOf = (scope: SchemaScope, node: SchemaNode, itemName: string): string | null => {
  for (const property of GTIN_PROPERTIES) {
    for (const value of scope.graph.values(node, property)) {
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      if (property === 'isbn' && !/^97[89]/.test(String(value).replace(/[\s-]/g, ''))) continue;
      const read = readGtin(value);
      if (read.ok) return read.value;
      warn(scope, read.code, `${itemName}: ${read.message}; kept without it`, property);
    }
  }
  return null;
};

export const skuOf = (scope: SchemaScope, node: SchemaNode): string | null => {
  const sku = scope.graph.text(node, 'sku');
  return sku === null ? null : cleanText(sku) || null;
};

/** `nutrition.calories` (NutritionInformation) or a bare `calories`. */
export const caloriesOf = (scope: SchemaScope, node: SchemaNode, itemName: string): number | null => {
  const holders = [...scope.graph.nodes(node, 'nutrition'), node];
  for (const holder of holders) {
    for (const value of scope.graph.values(holder, 'calories')) {
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      const read = readCalories(value);
      if (read.ok) return read.value;
      warn(scope, 'invalid_calories', `${itemName}: ${read.message}; kept without calories`, 'calories');
    }
  }
  return null;
};

interface OfferPrice {
  readonly name: string | null;
  readonly currency: string | null;
  readonly offer: SchemaNode;
}

/** Flattens `offers`: Offers, AggregateOffers with nested offers, and AggregateOffers standing alone. */
const offerNodes = (scope: SchemaScope, node: SchemaNode): SchemaNode[] => {
  const found: SchemaNode[] = [];
  for (const offer of scope.graph.nodes(node, 'offers')) {
    const nested = hasType(offer, 'AggregateOffer') ? scope.graph.nodes(offer, 'offers') : [];
    found.push(...(nested.length > 0 ? nested : [offer]));
  }
  return found;
};

const priceOfOffer = (
  scope: SchemaScope,
  offer: SchemaNode,
  itemName: string,
): Omit<DraftVariant, 'name' | 'options' | 'images'> => {
  const { graph } = scope;
  const specification = graph
    .nodes(offer, 'priceSpecification')
    .find((s) => graph.values(s, 'price').length > 0);
  const currency =
    currencyCode(graph.text(offer, 'priceCurrency')) ??
    (specification ? currencyCode(graph.text(specification, 'priceCurrency')) : null) ??
    scope.context.currency;
  let raw =
    graph.values(offer, 'price')[0] ?? (specification ? graph.values(specification, 'price')[0] : undefined);
  if (raw === undefined) {
    const low = graph.values(offer, 'lowPrice')[0];
    const high = graph.values(offer, 'highPrice')[0];
    if (low !== undefined && high !== undefined && String(low) !== String(high)) {
      warn(
        scope,
        'not_a_price',
        `${itemName}: the price is a range (${low} to ${high}), not one price; kept without a price`,
        'price',
      );
    } else {
      raw = low ?? high;
    }
  }
  const base = { sku: skuOf(scope, offer), gtin: gtinOf(scope, offer, itemName) };
  if (typeof raw !== 'string' && typeof raw !== 'number') return { ...base, price: null, pricing: 'fixed' };
  const read = readPrice(raw, currency);
  if (!read.ok) {
    warn(scope, read.code, `${itemName}: ${read.message}; kept without a price`, 'price');
    return { ...base, price: null, pricing: 'fixed' };
  }
  return { ...base, price: read.price, pricing: read.pricing };
};

/**
 * An item's variants from its `offers`: one offer → one variant (`name` null); several → one variant each,
 * named by the offer's `name` (`Small`, `Large`) under the option `Size`. Offers of the same thing in
 * several currencies keep the job's currency (or the first one listed).
 */
export const variantsFromOffers = (
  scope: SchemaScope,
  node: SchemaNode,
  itemName: string,
): { variants: DraftVariant[]; optionNames: string[] } => {
  const { graph } = scope;
  let offers: OfferPrice[] = offerNodes(scope, node).map((offer) => {
    const name = nameOf(scope, offer) ?? cleanDescription(graph.text(offer, 'description'));
    return {
      name: name === itemName ? null : name,
      currency: currencyCode(graph.text(offer, 'priceCurrency')),
      offer,
    };
  });
  const currencies = [...new Set(offers.map((o) => o.currency).filter((c): c is string => c !== null))];
  if (currencies.length > 1) {
    const keep = currencies.includes(scope.context.currency)
      ? scope.context.currency
      : (currencies[0] as string);
    offers = offers.filter((o) => o.currency === null || o.currency === keep);
    warn(
      scope,
      'conflicting_values',
      `${itemName}: offered in ${currencies.join(', ')}; the ${keep} prices were kept`,
      'price',
    );
  }
  const itemSku = skuOf(scope, node);
  const itemGtin = gtinOf(scope, node, itemName);
  const itemImages = imagesOf(scope, node);
  if (offers.length <= 1) {
    const priced = offers[0]
      ? priceOfOffer(scope, offers[0].offer, itemName)
      : { price: null, pricing: 'fixed' as const, sku: null, gtin: null };
    return {
      variants: [
        {
          name: null,
          options: {},
          ...priced,
          sku: priced.sku ?? itemSku,
          gtin: priced.gtin ?? itemGtin,
          images: [],
        },
      ],
      optionNames: [],
    };
  }
  const unnamed = offers.every((o) => o.name === null);
  const priced = offers.map((o) => priceOfOffer(scope, o.offer, itemName));
  if (unnamed && priced.every((p) => p.price?.amount === priced[0]?.price?.amount)) {
    // The same offer listed twice (or once per seller at one price): one variant.
    const first = priced[0] as (typeof priced)[number];
    return {
      variants: [
        {
          name: null,
          options: {},
          ...first,
          sku: first.sku ?? itemSku,
          gtin: first.gtin ?? itemGtin,
          images: [],
        },
      ],
      optionNames: [],
    };
  }
  const seen = new Map<string, number>();
  const variants = offers.map((offer, index) => {
    let name = offer.name ?? `Option ${index + 1}`;
    const repeats = seen.get(name) ?? 0;
    seen.set(name, repeats + 1);
    if (repeats > 0) name = `${name} (${repeats + 1})`;
    return {
      name,
      options: { Size: name },
      ...(priced[index] as (typeof priced)[number]),
      images: imagesOf(scope, offer.offer).filter((i) => !itemImages.some((x) => x.url === i.url)),
    };
  });
  return { variants, optionNames: ['Size'] };
};
