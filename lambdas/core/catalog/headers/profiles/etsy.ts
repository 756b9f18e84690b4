import type { DraftImage, DraftItem, DraftVariant } from '../../draft';
import { rowCells, rowCurrency } from '../../rows/row-cells';
import type { RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { normaliseHeader } from '../normalise';
import { roleNames, signatureFits } from './header-table';
import { optionCombinations, ownColumnsOnly, splitEscaped } from './product-rows';
import {
  columnFields,
  optionNamesOf,
  optionsName,
  type Profile,
  profileColumns,
  providedFields,
} from './profile';
import { ETSY_HEADERS, type ETSY_IGNORED, type EtsyRole } from './tables/etsy';

/**
 * Etsy's listings download (Shop Manager > Settings > Options > Download Data: EtsyListingsDownload.csv):
 * one row per listing with TITLE, DESCRIPTION (plain text), PRICE, CURRENCY_CODE, QUANTITY, TAGS and
 * MATERIALS (comma-separated), IMAGE1 … IMAGE10, up to three `VARIATION N TYPE` / `NAME` / `VALUES`
 * (values comma-separated) and SKU. Etsy listings have no category (SPEC 5.2: uncategorised). A listing
 * with variations is sold in each combination of their values; the file gives them no price of their own,
 * so each has the listing's PRICE, and the SKU cell's comma-separated SKUs when there is one per
 * combination.
 */

/**
 * Etsy's columns in the languages the download is written in (tables/etsy.ts: it follows the seller's
 * Etsy language; `CURRENCY_CODE` and `SKU` stay English). The quantity and materials columns are not
 * read but tell Etsy's download apart.
 */
const TABLE = roleNames(ETSY_HEADERS) as Record<
  Exclude<EtsyRole, (typeof ETSY_IGNORED)[number]>,
  readonly string[]
>;

type Role = keyof typeof TABLE;

const IMAGE = /^(?:image|photo|immagine|imagen|bild|foto) ?(\d+)$/;
/** `VARIATION 1 TYPE` and its translations: the variation's number and which part (type, name, values). */
const VARIATIONS_BY_LANGUAGE: readonly RegExp[] = [
  /^variation (?<n>\d+) (?<part>type|name|values?)$/,
  /^(?<part>tipo|nome|valori) variante (?<n>\d+)$/,
  /^(?<part>tipo|nombre|valores) (?:de )?(?:la )?variacion (?<n>\d+)$/,
  /^(?<part>type|nom|valeurs) (?:de )?(?:la )?variation (?<n>\d+)$/,
  /^variante (?<n>\d+) (?<part>typ|name|werte)$/,
];
const PART: Readonly<Record<string, 'type' | 'name' | 'values'>> = {
  type: 'type',
  tipo: 'type',
  typ: 'type',
  name: 'name',
  nome: 'name',
  nombre: 'name',
  nom: 'name',
  value: 'values',
  values: 'values',
  valori: 'values',
  valores: 'values',
  valeurs: 'values',
  werte: 'values',
};

const variationOf = (normalised: string): { n: number; part: 'type' | 'name' | 'values' } | null => {
  for (const pattern of VARIATIONS_BY_LANGUAGE) {
    const groups = pattern.exec(normalised)?.groups;
    const part = groups?.part === undefined ? undefined : PART[groups.part];
    if (groups?.n !== undefined && part !== undefined) return { n: Number(groups.n), part };
  }
  return null;
};

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
    const variation = variationOf(normalised);
    if (variation === null) return;
    const { n, part } = variation;
    const entry = variations.get(n) ?? { type: [], name: [], values: [] };
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
  // The table's signature, and (a hook no table says) a first image or a first variation column.
  matches: (headers) =>
    signatureFits(ETSY_HEADERS, headers) &&
    [...headers].some((header) => IMAGE.exec(header)?.[1] === '1' || variationOf(header)?.n === 1),
  open,
};
