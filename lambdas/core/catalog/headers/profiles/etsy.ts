import type { DraftImage, DraftItem, DraftVariant } from '../../draft';
import { rowCells, rowCurrency } from '../../rows/row-cells';
import type { RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { normaliseHeader } from '../normalise';
import { optionCombinations, ownColumnsOnly, splitEscaped } from './product-rows';
import {
  columnFields,
  optionNamesOf,
  optionsName,
  type Profile,
  profileColumns,
  providedFields,
} from './profile';

/**
 * Etsy's listings download (Shop Manager > Settings > Options > Download Data: EtsyListingsDownload.csv):
 * one row per listing with TITLE, DESCRIPTION (plain text), PRICE, CURRENCY_CODE, QUANTITY, TAGS and
 * MATERIALS (comma-separated), IMAGE1 … IMAGE10, up to three `VARIATION N TYPE` / `NAME` / `VALUES`
 * (values comma-separated) and SKU. Etsy listings have no category (SPEC 5.2: uncategorised). A listing
 * with variations is sold in each combination of their values; the file gives them no price of their own,
 * so each has the listing's PRICE, and the SKU cell's comma-separated SKUs when there is one per
 * combination.
 */

const TABLE = {
  name: ['title'],
  description: ['description'],
  price: ['price'],
  currency: ['currency code'],
  tags: ['tags'],
  sku: ['sku'],
} as const;

type Role = keyof typeof TABLE;

const IMAGE = /^(?:image|photo) ?(\d+)$/;
const VARIATION = /^variation (\d+) (type|name|values?)$/;

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const map = profileColumns(headers, TABLE, { skip: ownColumnsOnly(TABLE) });
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const [NAME, DESCRIPTION, PRICE, TAGS, SKU] = [
    col('name'),
    col('description'),
    col('price'),
    col('tags'),
    col('sku'),
  ];
  const currencyOf = rowCurrency(cells, col('currency'), ctx);
  const columns = columnFields(map);
  const images: { n: number; index: number }[] = [];
  const variations = new Map<number, { type: number[]; name: number[]; values: number[] }>();
  headers.forEach((header, index) => {
    const normalised = normaliseHeader(header);
    const image = IMAGE.exec(normalised);
    if (image !== null) {
      images.push({ n: Number(image[1]), index });
      columns.set(index, 'image_url');
      return;
    }
    const variation = VARIATION.exec(normalised);
    if (variation === null) return;
    const n = Number(variation[1]);
    const entry = variations.get(n) ?? { type: [], name: [], values: [] };
    const part = variation[2] === 'type' ? 'type' : variation[2] === 'name' ? 'name' : 'values';
    entry[part].push(index);
    variations.set(n, entry);
    columns.set(index, part === 'values' ? `option_value_${n}` : `option_name_${n}`);
  });
  const IMAGES = images.sort((a, b) => a.n - b.n).map((i) => [i.index]);
  const VARIATIONS = [...variations.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry);

  const variantsOf = (row: TableRow, base: DraftVariant): DraftVariant[] => {
    const combinations = optionCombinations(
      VARIATIONS.flatMap(({ type, name, values }) => {
        // A variation is named by its NAME, else by its TYPE (Etsy's own property, such as `Size`).
        const optionName = cells.text(row, name) ?? cells.text(row, type);
        const list = splitEscaped(cells.text(row, values) ?? '', ',');
        return optionName === null || list.length === 0 ? [] : [{ name: optionName, values: list }];
      }),
    );
    if (combinations.length === 0) return [base];
    const skus = splitEscaped(base.sku ?? '', ',');
    return combinations.map((options, i) => ({
      ...base,
      name: optionsName(options),
      options,
      sku: skus.length === combinations.length ? (skus[i] ?? null) : null,
    }));
  };

  return {
    profile: 'etsy',
    columns,
    provides: providedFields(map),
    row(row, emit) {
      const name = cells.text(row, NAME);
      if (name === null) {
        ctx.warn(
          row.row,
          NAME[0] === undefined ? 'TITLE' : cells.label(NAME[0]),
          'missing_name',
          'the listing has no title; skipped',
        );
        return;
      }
      const { cell } = cells.priceOf(row, PRICE, currencyOf(row));
      const variants = variantsOf(row, {
        ...singleVariant(cell, { sku: cells.text(row, SKU) }),
        options: {},
      });
      const pictures: DraftImage[] = IMAGES.flatMap((list) => cells.images(row, list));
      const draft: DraftItem = {
        kind: 'item',
        categoryPath: ctx.defaultCategory,
        name,
        description: cells.description(row, DESCRIPTION),
        tags: cells.tags(row, TAGS),
        images: pictures,
        optionNames: optionNamesOf(variants),
        variants,
        provenance: { source: ctx.source, row: row.row, sheet: ctx.sheet },
      };
      emit(draft);
    },
    end() {},
  };
};

export const etsyProfile: Profile = {
  name: 'etsy',
  matches: (headers) =>
    headers.has('title') &&
    headers.has('price') &&
    (headers.has('image1') || headers.has('variation 1 values') || headers.has('variation 1 name')) &&
    (headers.has('currency code') || headers.has('materials') || headers.has('quantity')),
  open,
};
