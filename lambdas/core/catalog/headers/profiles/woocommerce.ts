import type { DraftImage, DraftItem, DraftVariant } from '../../draft';
import { categoryPath, cellDescription } from '../../rows/cells';
import { rowCells } from '../../rows/row-cells';
import type { RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { CellValue, TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { normaliseHeader } from '../normalise';
import { roleNames } from './header-table';
import {
  columnFields,
  optionNamesOf,
  optionsName,
  type Profile,
  profileColumns,
  providedFields,
} from './profile';
import { WOOCOMMERCE_HEADERS } from './tables/woocommerce';

/**
 * WooCommerce's product CSV (Products → Export): one row per product or variation. `Type` says which:
 * `simple` and `external` products are items with one variant; a `variable` product is an item whose
 * variants are the `variation` rows naming it in `Parent` (its SKU, or `id:<ID>`), with their
 * `Attribute N name` / `Attribute N value(s)` as options; `grouped` products only list others and are
 * skipped with a warning. `Categories` is a comma-separated list of `A > B` paths (the most specific is
 * used); `Tags` and `Images` are comma-separated; `Regular price` is the price (`Sale price` is a
 * promotion and is not read). The header is in the store's language (German, French and Spanish
 * exports are read as well as English ones).
 *
 * A dump of the REST API (`/wp-json/wc/v3/products`, as JSON or flattened to CSV) has the same columns in
 * snake case but no variation rows (variations are another endpoint): its `price` (the price charged now)
 * is read when `regular_price` is empty, categories and tags come as lists of `{ id, name, slug }` (or
 * their names joined with `;`), and a variable product no variation row names keeps its own price and SKU
 * (one `variation_unread` warning says its variations are not in the file).
 */

// WooCommerce writes its export's header in the site's language (the column names are translated
// strings): every language's names are in tables/woocommerce.ts.
const TABLE = roleNames(WOOCOMMERCE_HEADERS);

type Role = keyof typeof TABLE;

/** `Attribute 1 name` / `Attribute 1 value(s)` in the export's languages: the attribute's number and part. */
const ATTRIBUTES: readonly RegExp[] = [
  /^attribute (?<n>\d+) (?<part>name|value s|values|value)$/,
  /^attribut (?<n>\d+) (?<part>name|wert e|werte|wert)$/,
  /^(?<part>nom|valeur s|valeurs|valeur) de l attribut (?<n>\d+)$/,
  /^(?<part>nombre|valor es|valores|valor) del atributo (?<n>\d+)$/,
];
const NAME_PARTS = new Set(['name', 'nom', 'nombre']);

const attributeOf = (normalised: string): { n: number; isName: boolean } | null => {
  for (const pattern of ATTRIBUTES) {
    const groups = pattern.exec(normalised)?.groups;
    if (groups?.n !== undefined && groups.part !== undefined)
      return { n: Number(groups.n), isName: NAME_PARTS.has(groups.part) };
  }
  return null;
};

const anyOf = (headers: ReadonlySet<string>, names: readonly string[]): boolean =>
  names.some((name) => headers.has(normaliseHeader(name)));

/** Splits on commas not escaped as `\,` (WooCommerce escapes commas inside names). */
const splitList = (text: string, separators = /(?<!\\),/): string[] =>
  text
    .split(separators)
    .map((s) => s.replace(/\\,/g, ',').trim())
    .filter(Boolean);

/**
 * Categories and tags as a REST API dump (`/wp-json/wc/v3/products`) holds them: a list of
 * `{ id, name, slug }` objects (JSON), or their names joined with `;` or `|` when it was flattened to CSV.
 */
const LIST_SEPARATORS = /(?<!\\)[,;|]/;

/** The names of a JSON list cell (`[{ "id": 9, "name": "Hoodies" }]`, `["Hoodies"]`), or null for text. */
const namesOfList = (raw: CellValue | undefined): string[] | null => {
  if (!Array.isArray(raw)) return null;
  return raw.flatMap((entry: unknown) => {
    if (typeof entry === 'string') return entry.trim() === '' ? [] : [entry.trim()];
    if (entry !== null && typeof entry === 'object') {
      const name = (entry as Record<string, unknown>).name;
      return typeof name === 'string' && name.trim() !== '' ? [name.trim()] : [];
    }
    return [];
  });
};

interface Parent {
  readonly row: TableRow;
  readonly draft: Omit<DraftItem, 'variants' | 'optionNames'>;
  /** The parent row's own price and SKU: what is left of the product when no variation row names it. */
  readonly own: DraftVariant;
  readonly variants: DraftVariant[];
}

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const attributes = new Map<number, { name: number[]; value: number[] }>();
  headers.forEach((header, index) => {
    const match = attributeOf(normaliseHeader(header));
    if (match === null) return;
    const entry = attributes.get(match.n) ?? { name: [], value: [] };
    (match.isName ? entry.name : entry.value).push(index);
    attributes.set(match.n, entry);
  });
  const map = profileColumns(headers, TABLE);
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const [ID, TYPE, SKU, GTIN, NAME, DESCRIPTION, PRICE, CATEGORY, TAGS, IMAGES, PARENT, BRAND] = [
    col('id'),
    col('type'),
    col('sku'),
    col('gtin'),
    col('name'),
    col('description'),
    col('price'),
    col('category'),
    col('tags'),
    col('image_url'),
    col('parent'),
    col('brand'),
  ];
  const columns = columnFields(map);
  for (const [n, { name, value }] of attributes) {
    for (const i of name) columns.set(i, `option_name_${n}`);
    for (const i of value) columns.set(i, `option_value_${n}`);
  }
  const parents = new Map<string, Parent>();
  const order: Parent[] = [];
  const orphans: { row: TableRow; parentRef: string; variant: DraftVariant; name: string }[] = [];

  const categoryOf = (row: TableRow): string[] | null => {
    const index = CATEGORY.find((i) => namesOfList(row.cells[i])?.length) ?? cells.first(row, CATEGORY);
    if (index < 0) return null;
    const names = namesOfList(row.cells[index]) ?? splitList(cells.text(row, [index]) ?? '', LIST_SEPARATORS);
    const paths = names.map(categoryPath).filter((p) => p.length > 0);
    if (paths.length === 0) return null;
    // `Clothing, Clothing > Hoodies`: a path and its own ancestors are one category, the deepest.
    const distinct = paths.filter(
      (p) =>
        !paths.some(
          (q) => q.length > p.length && p.every((name, i) => q[i]?.toLowerCase() === name.toLowerCase()),
        ),
    );
    if (distinct.length > 1) {
      ctx.warn(
        row.row,
        cells.label(index),
        'several_categories',
        `the product is in ${distinct.length} categories; the first (${(distinct[0] as string[]).join(' > ')}) is used`,
      );
    }
    return distinct[0] ?? null;
  };

  const tagsOf = (row: TableRow): readonly string[] => {
    for (const i of TAGS) {
      const names = namesOfList(row.cells[i]);
      if (names !== null && names.length > 0) return [...new Set(names)];
    }
    const index = cells.first(row, TAGS);
    const raw = index < 0 ? null : cells.text(row, [index]);
    if (raw === null || !raw.includes('\\,')) return cells.tags(row, TAGS);
    return [...new Set(splitList(raw))];
  };

  const optionsOf = (row: TableRow): Record<string, string> => {
    const options: Record<string, string> = {};
    for (const { name, value } of attributes.values()) {
      const optionName = cells.text(row, name);
      const optionValue = cells.text(row, value);
      if (optionName !== null && optionValue !== null) options[optionName] = optionValue;
    }
    return options;
  };

  const variantOf = (row: TableRow, options: Record<string, string>): DraftVariant => {
    const { cell } = cells.priceOf(row, PRICE, ctx.currency);
    const images: DraftImage[] = cells.images(row, IMAGES);
    return {
      ...singleVariant(cell, {
        name: optionsName(options),
        sku: cells.text(row, SKU),
        gtin: cells.gtin(row, GTIN),
      }),
      options,
      images: images.slice(0, 1),
    };
  };

  // WooCommerce writes a newline inside a value as a literal `\n`.
  const descriptionOf = (row: TableRow): string | null => {
    const index = cells.first(row, DESCRIPTION);
    if (index < 0) return null;
    const raw = row.cells[index];
    if (typeof raw !== 'string') return cells.description(row, [index]);
    const read = cellDescription(raw.replace(/\\n/g, '\n'));
    return read.ok ? read.value : null;
  };

  const itemOf = (row: TableRow, name: string): Omit<DraftItem, 'variants' | 'optionNames'> => ({
    kind: 'item',
    categoryPath: categoryOf(row) ?? ctx.defaultCategory,
    name,
    description: descriptionOf(row),
    brand: cells.text(row, BRAND),
    // WooCommerce escapes a comma inside a tag as `\,`, as in categories.
    tags: tagsOf(row),
    images: cells.images(row, IMAGES),
    provenance: { source: ctx.source, row: row.row, sheet: ctx.sheet },
  });

  return {
    profile: 'woocommerce',
    columns,
    provides: providedFields(map),
    row(row, emit) {
      const types = (cells.text(row, TYPE) ?? 'simple').toLowerCase().split(/\s*,\s*/);
      const name = cells.text(row, NAME);
      if (types.includes('variation')) {
        const parentRef = cells.text(row, PARENT);
        const options = optionsOf(row);
        const variant = variantOf(row, options);
        const parent = parentRef === null ? undefined : parents.get(parentRef.toLowerCase());
        if (parent !== undefined) parent.variants.push(variant);
        else
          orphans.push({
            row,
            parentRef: parentRef ?? '',
            variant,
            name: name ?? parentRef ?? 'Unnamed variation',
          });
        return;
      }
      if (name === null) {
        ctx.warn(
          row.row,
          NAME[0] === undefined ? 'Name' : cells.label(NAME[0]),
          'missing_name',
          'the row has no name; skipped',
        );
        return;
      }
      if (types.includes('grouped')) {
        ctx.warn(
          row.row,
          TYPE[0] === undefined ? 'Type' : cells.label(TYPE[0]),
          'invalid_value',
          `${JSON.stringify(name)} is a grouped product (it only lists other products); skipped`,
        );
        return;
      }
      if (types.includes('variable')) {
        const parent: Parent = {
          row,
          draft: itemOf(row, name),
          own: { ...variantOf(row, {}), images: [] },
          variants: [],
        };
        const id = cells.text(row, ID);
        const sku = cells.text(row, SKU);
        if (id !== null) parents.set(`id:${id}`.toLowerCase(), parent);
        if (sku !== null) parents.set(sku.toLowerCase(), parent);
        order.push(parent);
        return;
      }
      // A simple product's attributes describe it; they are not variants.
      emit({ ...itemOf(row, name), optionNames: [], variants: [{ ...variantOf(row, {}), images: [] }] });
    },
    end(emit) {
      // Variations may come before their parent in a hand-made file: attach them now.
      for (const orphan of orphans) {
        const parent = parents.get(orphan.parentRef.toLowerCase());
        if (parent !== undefined) {
          parent.variants.push(orphan.variant);
          continue;
        }
        ctx.warn(
          orphan.row.row,
          PARENT[0] === undefined ? 'Parent' : cells.label(PARENT[0]),
          'orphan_variant',
          `variation of unknown product ${JSON.stringify(orphan.parentRef)}; kept as a product of its own`,
        );
        emit({
          ...itemOf(orphan.row, orphan.name),
          optionNames: optionNamesOf([orphan.variant]),
          variants: [orphan.variant],
        });
      }
      // A variable product no variation row names (a REST API dump, an export of the parents only) is
      // kept with its own price and SKU rather than emptied: its variations are not in the file.
      const unread: Parent[] = [];
      for (const parent of order) {
        if (parent.variants.length === 0) {
          unread.push(parent);
          emit({ ...parent.draft, optionNames: [], variants: [parent.own] });
        } else
          emit({ ...parent.draft, optionNames: optionNamesOf(parent.variants), variants: parent.variants });
      }
      const [first] = unread;
      if (first !== undefined) {
        const names = unread.slice(0, 3).map((p) => JSON.stringify(p.draft.name));
        ctx.warn(
          first.row.row,
          TYPE[0] === undefined ? 'Type' : cells.label(TYPE[0]),
          'variation_unread',
          `${unread.length} variable product(s) have no variation rows in this file (${names.join(', ')}${unread.length > 3 ? ', …' : ''}): ` +
            'each is kept with its own price and SKU; its variations are not in the file',
        );
      }
    },
  };
};

export const woocommerceProfile: Profile = {
  name: 'woocommerce',
  matches: (headers) =>
    anyOf(headers, TABLE.type) &&
    anyOf(headers, TABLE.name) &&
    (anyOf(headers, TABLE.price) || anyOf(headers, TABLE.parent)),
  open,
};
