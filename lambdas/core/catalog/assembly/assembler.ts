import type { Category, Item, ModifierGroup, Price, Variant } from '../document';
import { FIELD_LIMITS, MAX_CATALOG_ITEMS } from '../document';
import type { Draft, DraftItem, DraftModifierGroup, Provenance } from '../draft';
import { CatalogLimitError } from '../errors';
import { type EntityKind, makeEntityIds } from '../ids';
import type { WarningInput } from '../warnings';
import { type CheckedItem, type CheckedVariant, checkDraft, type DraftWarn } from './check-draft';
import { fold, type IdentityRule, isIdentifierKey, pathKey, variantLabel } from './identity';

/**
 * Assembly (SPEC 5.5): drafts → categories, items, variants and modifier groups. Each draft is checked
 * (check-draft.ts), its item found by the job type's identity rule and merged: new variants added, a
 * variant already there reported as a duplicate (unless the draft only repeats it to add a modifier, as
 * flattened modifier rows do), images, tags and modifiers merged, empty fields filled. Ids are UUIDv5 of
 * the job id and natural keys, so the order of the drafts changes no id.
 */

interface GroupState {
  /** The group's name, folded: its key within the item. */
  readonly name: string;
  readonly group: ModifierGroup;
  /** Folded names of its modifiers. */
  modifierKeys: KeySet;
  fixedMax: boolean;
}

interface ItemState {
  readonly item: Item;
  /** Natural keys of its variants. */
  variantKeys: readonly string[];
  groups: readonly GroupState[];
  /** The source's own key of the record it was made from (DraftItem.sourceKey), if any. */
  sourceKey: string | null;
  /** The source of its first draft: rows of one source that share an identifier may be two products. */
  readonly source: string;
  /**
   * Only for an item created without a variant: its natural key and where it came from (if no draft gives
   * it a variant, finish() adds one and warns). Other items keep no key: the map is keyed by their id.
   */
  readonly orphan: { readonly key: string; readonly provenance: Provenance | undefined } | undefined;
}

/**
 * One shared, frozen empty list (or options object) for every entity that has none: a catalog of 200,000
 * items would otherwise hold a million empty arrays. Lists are never changed in place: `append` returns a
 * new list of exactly the right length, so shared and exact-size lists stay safe to share and an item
 * holds no spare capacity (an array grown by `push` keeps room for 16 more).
 */
const NONE: never[] = Object.freeze([]) as unknown as never[];
const NO_OPTIONS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const shared = <T>(list: T[]): T[] => (list.length === 0 ? NONE : list);
/** A new list: `list` and `value`. */
const append = <T>(list: readonly T[], value: T): T[] => {
  const out = new Array<T>(list.length + 1);
  for (let i = 0; i < list.length; i += 1) out[i] = list[i] as T;
  out[list.length] = value;
  return out;
};

/** A price as one comparable string (`1250 EUR`; `` without one). */
const priceKey = (price: Price | null | undefined): string =>
  price === null || price === undefined ? '' : `${price.amount} ${price.currency}`;

const compact = (name: string): string => fold(name).replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * True when two names under one identifier name the same product: equal but for case, spaces and
 * punctuation, or one the other with more words (`Cola 12oz`, `Cola 12 oz Can`).
 */
const sameProductName = (a: string, b: string): boolean => {
  const x = compact(a);
  const y = compact(b);
  return x === y || (x.length > 0 && y.length > 0 && (x.includes(y) || y.includes(x)));
};

/** Keys of a few values in a list, of many in a Set (a group of 1,000 modifiers). */
type KeySet = readonly string[] | Set<string>;
const hasKey = (keys: KeySet, key: string): boolean =>
  Array.isArray(keys) ? keys.includes(key) : (keys as Set<string>).has(key);
const addKey = (keys: KeySet, key: string): KeySet => {
  if (!Array.isArray(keys)) return (keys as Set<string>).add(key);
  return keys.length < 16 ? append(keys, key) : new Set([...keys, key]);
};

export interface AssemblyOptions {
  readonly jobId: string;
  readonly identity: IdentityRule;
  /** SPEC 9 (200,000). */
  readonly maxItems?: number;
  readonly warn: (warning: WarningInput & { readonly source: string }) => void;
}

export interface AssembledCatalog {
  readonly categories: Category[];
  readonly items: Item[];
  readonly modifierGroups: ModifierGroup[];
  /** Category path (`A > B`) of each category id, for client mappings. */
  readonly categoryPaths: ReadonlyMap<string, string>;
}

export class CatalogAssembler {
  private readonly idOf: (kind: EntityKind, key: string) => string;
  private readonly maxItems: number;
  private readonly categories = new Map<string, { category: Category; path: string }>();
  private readonly categoryById = new Map<string, Category>();
  private readonly siblings = new Map<string | null, number>();
  private readonly items: ItemState[] = [];
  /** Items by id: the id is the UUIDv5 of the natural key, so the key itself need not be kept. */
  private readonly byId = new Map<string, ItemState>();
  private readonly unique = new Map<string, { state: ItemState; variantKey: string; price: string }>();
  /**
   * Identifiers (a GTIN, a SKU) several products of one source share while differing in name, price or
   * id: each product is kept, and finish() warns once per identifier with the number of products.
   */
  private readonly sharedIds = new Map<
    string,
    { what: 'GTIN' | 'SKU'; value: string; count: number; source: string; row: number | null }
  >();
  private readonly groups: GroupState[] = [];
  /** Short values many entities repeat (tags, sizes, units) are kept once. */
  private readonly interned = new Map<string, string>();
  private readonly singleKeys = new Map<string, readonly string[]>();

  constructor(private readonly options: AssemblyOptions) {
    this.idOf = makeEntityIds(options.jobId);
    this.maxItems = options.maxItems ?? MAX_CATALOG_ITEMS;
  }

  /** Items so far. */
  get itemCount(): number {
    return this.items.length;
  }

  /** Warnings about one draft, naming its source and row. */
  private warnFor(source: string, row: number | null): DraftWarn {
    // Returned, not bound to a name: a bundle built with --keep-names would name every such function
    // (Object.defineProperty), once per draft.
    return (column, code, message) => this.options.warn({ source, row, column, code, message });
  }

  add(draft: Draft, fallbackSource: string): void {
    if (draft.kind === 'category') {
      const path = draft.path.map((s) => s.trim()).filter(Boolean);
      if (path.length === 0) return;
      const category = this.categoryOf(path);
      if (draft.externalId) category.external_id = draft.externalId;
      return;
    }
    const source = draft.provenance?.source ?? fallbackSource;
    const warn = this.warnFor(source, draft.provenance?.row ?? null);
    const checked = checkDraft(draft, warn);
    if (checked !== null) this.addItem(draft, checked, warn, source);
  }

  /**
   * The variant keys of an item with one variant: most items have one, and their keys repeat (`''`, a
   * size), so short ones are one shared frozen list. Keys that do not repeat (a retail variant's GTIN or
   * SKU) would only fill the table: it stops growing at a thousand.
   */
  private onlyKey(key: string): readonly string[] {
    const known = this.singleKeys.get(key);
    if (known !== undefined) return known;
    if (key.length > 40 || this.singleKeys.size >= 1000) return [key];
    const list = Object.freeze([key]);
    this.singleKeys.set(key, list);
    return list;
  }

  private intern(value: string): string {
    if (value.length > 40) return value;
    const known = this.interned.get(value);
    if (known !== undefined) return known;
    this.interned.set(value, value);
    return value;
  }

  private categoryOf(path: readonly string[]): Category {
    const known = this.categories.get(pathKey(path));
    if (known !== undefined) return known.category;
    let parent: Category | null = null;
    for (let depth = 1; depth <= path.length; depth += 1) {
      const key = pathKey(path.slice(0, depth));
      let entry = this.categories.get(key);
      if (entry === undefined) {
        const parentId: string | null = parent === null ? null : parent.id;
        const sort = this.siblings.get(parentId) ?? 0;
        this.siblings.set(parentId, sort + 1);
        const category: Category = {
          id: this.idOf('category', key),
          name: path[depth - 1] as string,
          parent_id: parentId,
          sort,
          external_id: null,
        };
        entry = { category, path: path.slice(0, depth).join(' > ') };
        this.categories.set(key, entry);
        this.categoryById.set(category.id, category);
      }
      parent = entry.category;
    }
    return parent as Category;
  }

  /** Counts a product that shares an identifier with another of its source (warned in finish()). */
  private share(key: string, what: 'GTIN' | 'SKU', value: string, source: string, row: number | null): void {
    const known = this.sharedIds.get(key);
    if (known !== undefined) known.count += 1;
    else this.sharedIds.set(key, { what, value, count: 2, source, row });
  }

  private addItem(draft: DraftItem, checked: CheckedItem, warn: DraftWarn, source: string): void {
    const identity = this.options.identity;
    let key = identity.itemKey(checked);
    let state = this.byId.get(this.idOf('item', key));
    const sourceKey = draft.sourceKey ?? null;
    const row = draft.provenance?.row ?? null;
    const only = checked.variants.length === 1 ? checked.variants[0] : undefined;
    if (
      state !== undefined &&
      only !== undefined &&
      isIdentifierKey(key) &&
      state.source === source &&
      (!sameProductName(state.item.name, checked.name) ||
        priceKey(state.item.variants[0]?.price ?? null) !== priceKey(only.price) ||
        (sourceKey !== null && state.sourceKey !== null && fold(sourceKey) !== fold(state.sourceKey)))
    ) {
      // Rows of one source that share a barcode or SKU but differ in name, price or id: two products the
      // merchant keeps (counted, warned in finish()). Across sources one identifier is one product.
      key = `${key}#${fold(checked.name)}#${priceKey(only.price)}#${fold(sourceKey ?? '')}`;
      state = this.byId.get(this.idOf('item', key));
    } else if (
      state !== undefined &&
      sourceKey !== null &&
      state.sourceKey !== null &&
      fold(state.sourceKey) !== fold(sourceKey)
    ) {
      // Two products the source keeps apart (two handles, two ids) that share a name: never one item.
      warn(
        null,
        'shared_name',
        `another product (${JSON.stringify(state.sourceKey)}) has the same name ${JSON.stringify(checked.name)}; kept as a separate item`,
      );
      key = `${key}#${fold(sourceKey)}`;
      state = this.byId.get(this.idOf('item', key));
    }
    const addsModifiers = checked.modifierGroups.length > 0;
    const accepted: { variant: CheckedVariant; variantKey: string }[] = [];
    for (const variant of checked.variants) {
      const variantKey = identity.variantKey(variant);
      if (accepted.some((a) => a.variantKey === variantKey)) continue;
      let clash:
        | {
            what: 'GTIN' | 'SKU';
            key: string;
            owner: { state: ItemState; variantKey: string; price: string };
          }
        | undefined;
      for (const unique of identity.uniqueKeys(variant)) {
        const owner = this.unique.get(unique.key);
        if (owner !== undefined) {
          clash = { what: unique.what, key: unique.key, owner };
          break;
        }
      }
      if (
        clash !== undefined &&
        clash.owner.state !== state &&
        clash.owner.state.source === source &&
        (!sameProductName(clash.owner.state.item.name, checked.name) ||
          clash.owner.price !== priceKey(variant.price) ||
          (sourceKey !== null &&
            clash.owner.state.sourceKey !== null &&
            fold(sourceKey) !== fold(clash.owner.state.sourceKey)))
      ) {
        // Another product of this source with the same barcode or SKU: kept, counted.
        const value = clash.what === 'GTIN' ? (variant.gtin ?? '') : (variant.sku ?? '');
        this.share(clash.key, clash.what, value, source, row);
        clash = undefined;
      }
      if (clash?.owner !== undefined) {
        const repeat = clash.owner.state === state && clash.owner.variantKey === variantKey;
        if (!(repeat && addsModifiers)) {
          warn(
            null,
            'duplicate_product',
            `duplicate product (same ${clash.what} as ${JSON.stringify(clash.owner.state.item.name)}); skipped`,
          );
        }
        continue;
      }
      if (state?.variantKeys.includes(variantKey)) {
        if (!addsModifiers) this.duplicate(state, variant, warn);
        continue;
      }
      accepted.push({ variant, variantKey });
    }
    if (state === undefined) {
      if (accepted.length === 0 && checked.variants.length > 0 && !addsModifiers) return;
      state = this.createItem(
        this.idOf('item', key),
        key,
        checked,
        accepted.length === 0 ? draft.provenance : null,
        sourceKey,
        source,
      );
    } else {
      this.mergeFields(state.item, checked);
      state.sourceKey ??= sourceKey;
    }
    for (const { variant, variantKey } of accepted) this.addVariant(state, key, variant, variantKey, warn);
    for (const group of checked.modifierGroups) this.addGroup(state, key, group, warn);
  }

  private duplicate(state: ItemState, variant: CheckedVariant, warn: DraftWarn): void {
    const label = variantLabel(variant);
    const categoryName =
      state.item.category_id === null ? undefined : this.categoryById.get(state.item.category_id)?.name;
    const category = categoryName === undefined ? '' : ` in category ${JSON.stringify(categoryName)}`;
    warn(
      null,
      label === null ? 'duplicate_item' : 'duplicate_variant',
      label === null
        ? `duplicate item ${JSON.stringify(state.item.name)}${category}; skipped`
        : `duplicate variant ${JSON.stringify(label)} of ${JSON.stringify(state.item.name)}; skipped`,
    );
  }

  private createItem(
    id: string,
    key: string,
    checked: CheckedItem,
    /** Where an item created without a variant comes from (null: it has one). */
    provenance: Provenance | undefined | null,
    sourceKey: string | null,
    source: string,
  ): ItemState {
    if (this.items.length >= this.maxItems) {
      throw new CatalogLimitError(`the catalog has more than ${this.maxItems} items, the limit per catalog`);
    }
    const item: Item = {
      id,
      name: checked.name,
      description: checked.description,
      category_id: checked.categoryPath.length === 0 ? null : this.categoryOf(checked.categoryPath).id,
      brand: checked.brand,
      tags: checked.tags.length === 0 ? NONE : checked.tags.map((t) => this.intern(t)),
      calories: checked.calories,
      modifier_group_ids: NONE,
      images: shared(checked.images),
      external_id: checked.externalId,
      option_names:
        checked.optionNames.length === 0 ? NONE : checked.optionNames.slice(0, FIELD_LIMITS.options),
      variants: NONE,
    };
    const state: ItemState = {
      item,
      variantKeys: NONE,
      groups: NONE,
      sourceKey,
      source,
      orphan:
        provenance === null
          ? undefined
          : { key, provenance: checked.variants.length === 0 ? provenance : undefined },
    };
    this.items.push(state);
    this.byId.set(id, state);
    return state;
  }

  private mergeFields(item: Item, checked: CheckedItem): void {
    item.description ??= checked.description;
    item.brand ??= checked.brand;
    item.calories ??= checked.calories;
    item.external_id ??= checked.externalId;
    for (const tag of checked.tags) {
      const folded = tag.toLowerCase();
      if (item.tags.length >= FIELD_LIMITS.tags || item.tags.some((t) => t.toLowerCase() === folded))
        continue;
      item.tags = append(item.tags, this.intern(tag));
    }
    for (const image of checked.images) {
      if (item.images.length >= FIELD_LIMITS.images || item.images.some((i) => i.url === image.url)) continue;
      item.images = append(item.images, image);
    }
    for (const name of checked.optionNames) {
      if (item.option_names.length >= FIELD_LIMITS.options || item.option_names.includes(name)) continue;
      item.option_names = append(item.option_names, name);
    }
  }

  private addVariant(
    state: ItemState,
    itemKey: string,
    variant: CheckedVariant,
    variantKey: string,
    warn: DraftWarn,
  ): void {
    if (state.item.variants.length >= FIELD_LIMITS.variants) {
      warn(
        'variant',
        'too_many_variants',
        `${JSON.stringify(state.item.name)} has more than ${FIELD_LIMITS.variants} variants; the others are ignored`,
      );
      return;
    }
    let options = NO_OPTIONS;
    for (const name in variant.options) {
      if (!state.item.option_names.includes(name)) {
        if (state.item.option_names.length >= FIELD_LIMITS.options) continue;
        state.item.option_names = append(state.item.option_names, name);
      }
      if (options === NO_OPTIONS) options = {};
      options[name] = variant.options[name] as string;
    }
    const created: Variant = {
      id: this.idOf('variant', `${itemKey}#${variantKey}`),
      name: variant.name,
      options,
      sku: variant.sku,
      gtin: variant.gtin,
      size: variant.size === null ? null : this.intern(variant.size),
      unit: variant.unit === null ? null : this.intern(variant.unit),
      price: variant.price,
      pricing: variant.pricing,
      images: shared(variant.images),
      external_id: variant.externalId,
    };
    state.item.variants = append(state.item.variants, created);
    state.variantKeys =
      state.variantKeys.length === 0 ? this.onlyKey(variantKey) : append(state.variantKeys, variantKey);
    for (const unique of this.options.identity.uniqueKeys(variant)) {
      if (!this.unique.has(unique.key))
        this.unique.set(unique.key, { state, variantKey, price: priceKey(variant.price) });
    }
  }

  private addGroup(state: ItemState, itemKey: string, draft: DraftModifierGroup, warn: DraftWarn): void {
    const name = draft.name.trim();
    if (name === '' || name.length > FIELD_LIMITS.name) {
      warn(
        'modifier_group',
        name === '' ? 'incomplete_modifier' : 'too_long',
        'the modifier group has no usable name; ignored',
      );
      return;
    }
    const folded = fold(name);
    const key = `${itemKey}/${folded}`;
    let group = state.groups.find((g) => g.name === folded);
    if (group === undefined) {
      const created: ModifierGroup = {
        id: this.idOf('modifier_group', key),
        name,
        min: 0,
        max: 0,
        modifiers: NONE,
      };
      group = { name: folded, group: created, modifierKeys: NONE, fixedMax: false };
      state.groups = append(state.groups, group);
      state.item.modifier_group_ids = append(state.item.modifier_group_ids, created.id);
      this.groups.push(group);
    }
    if (draft.min !== null && draft.min !== undefined && Number.isInteger(draft.min) && draft.min >= 0)
      group.group.min = draft.min;
    if (draft.max !== null && draft.max !== undefined && Number.isInteger(draft.max) && draft.max >= 0) {
      group.group.max = draft.max;
      group.fixedMax = true;
    }
    for (const modifier of draft.modifiers) {
      const modifierName = modifier.name.trim();
      const modifierKey = fold(modifierName);
      if (modifierName === '' || modifierName.length > FIELD_LIMITS.name) continue;
      if (hasKey(group.modifierKeys, modifierKey)) {
        warn(
          'modifier',
          'duplicate_modifier',
          `duplicate modifier ${JSON.stringify(modifierName)} in group ${JSON.stringify(name)}; ignored`,
        );
        continue;
      }
      if (group.group.modifiers.length >= FIELD_LIMITS.modifiers) {
        warn(
          'modifier',
          'too_many_values',
          `group ${JSON.stringify(name)} has more than ${FIELD_LIMITS.modifiers} modifiers; the others are ignored`,
        );
        break;
      }
      group.modifierKeys = addKey(group.modifierKeys, modifierKey);
      group.group.modifiers = append(group.group.modifiers, {
        id: this.idOf('modifier', `${key}/${modifierKey}`),
        name: modifierName,
        price: modifier.price ?? null,
      });
    }
  }

  /**
   * The assembled catalog. An item no draft gave a variant (only modifier rows named it) gets one
   * without a price, with a warning; variants of an item with several that the source did not name are
   * named after their size; a modifier group's `max` defaults to its number of modifiers.
   */
  finish(): AssembledCatalog {
    for (const state of this.items) {
      const { item } = state;
      if (item.variants.length === 0) {
        const provenance = state.orphan?.provenance;
        this.options.warn({
          source: provenance?.source ?? '',
          row: provenance?.row ?? null,
          column: 'price',
          code: 'no_price',
          message: `item ${JSON.stringify(item.name)} has modifiers but no row with its own price; kept without a price`,
        });
        item.variants = append(item.variants, {
          id: this.idOf('variant', `${state.orphan?.key ?? ''}#`),
          name: null,
          options: NO_OPTIONS,
          sku: null,
          gtin: null,
          size: null,
          unit: null,
          price: null,
          pricing: 'fixed',
          images: NONE,
          external_id: null,
        });
      } else if (item.variants.length > 1) {
        // Variants the source did not name (a dish listed once per size) are named after their size.
        const unnamed = item.variants.filter((v) => v.name === null && v.options === NO_OPTIONS);
        const bySize =
          item.option_names.length === 0 &&
          unnamed.length === item.variants.length &&
          unnamed.every((v) => v.size !== null);
        for (const variant of unnamed) {
          variant.name = variantLabel(variant);
          if (bySize && variant.name !== null) variant.options = { Size: variant.name };
        }
        if (bySize) item.option_names = ['Size'];
      }
    }
    for (const shared of this.sharedIds.values()) {
      this.options.warn({
        source: shared.source,
        row: shared.row,
        column: shared.what === 'GTIN' ? 'gtin' : 'sku',
        code: 'shared_identifier',
        message: `${shared.count} products share the ${shared.what} ${JSON.stringify(shared.value)} but differ in name, price or id; each is kept`,
      });
    }
    for (const { group, fixedMax } of this.groups) {
      if (!fixedMax) group.max = Math.max(group.modifiers.length, group.min);
      group.max = Math.max(group.max, group.min);
    }
    const categoryPaths = new Map<string, string>();
    for (const { category, path } of this.categories.values()) categoryPaths.set(category.id, path);
    return {
      categories: [...this.categories.values()].map((c) => c.category),
      items: this.items.map((s) => s.item),
      // In item order (then the item's own order): the same catalog, however its rows were ordered.
      modifierGroups: this.items.flatMap((state) => state.groups.map((g) => g.group)),
      categoryPaths,
    };
  }
}
