import type { ExportRun } from './formats-types';
import { type ItemRows, itemRows } from './rows';
import type { StoredCatalog } from './stored-catalog';
import { decimalAmount } from './text';
import { counted } from './warnings';

/**
 * The `csv` and `xlsx` exports' rows, for people who work in spreadsheets: one row per variant with a
 * column per field, under headers the service itself reads back (SPEC 5.2's column aliases), then one row
 * per modifier of the item (`modifier_group`, `modifier`, `modifier_price`), as a menu spreadsheet lists
 * them. Lists (tags, images) are separated by ` | `.
 */
export const SPREADSHEET_HEADER = [
  'item_id',
  'variant_id',
  'category',
  'name',
  'variant',
  'sku',
  'gtin',
  'price',
  'currency',
  'pricing',
  'size',
  'unit',
  'description',
  'brand',
  'tags',
  'calories',
  'image_url',
  'external_id',
  'modifier_group',
  'modifier',
  'modifier_price',
] as const;

/** Tags joined by ` | `; a lone tag with a comma keeps a trailing `|`, so that it is not read as two tags. */
const tagsCell = (tags: readonly string[]): string =>
  tags.length === 1 && /[,;]/.test(tags[0] as string) ? `${tags[0]} |` : tags.join(' | ');

export const spreadsheetItems = (catalog: StoredCatalog, run: ExportRun): AsyncIterable<ItemRows> =>
  itemRows(catalog, {
    target: 'a spreadsheet',
    carries: new Set([
      'description',
      'brand',
      'tags',
      'calories',
      'images',
      'modifier_groups',
      'sku',
      'gtin',
      'size',
      'unit',
      'external_id',
      'category',
    ]),
    warnings: run.warnings,
  });

/** An item's rows as cell texts (prices as decimals, numbers as text a reader parses). */
export const spreadsheetRows = (rows: ItemRows, run: ExportRun): string[][] => {
  const { item, categoryPath, variants, modifierGroups } = rows;
  const category = categoryPath.join(' > ');
  const lines = variants.map((row, i) => {
    const v = row.variant;
    return [
      item.id,
      v.id,
      category,
      item.name,
      variants.length > 1 ? (row.label ?? row.optionValues.join(' / ')) : (v.name ?? ''),
      v.sku ?? '',
      v.gtin ?? '',
      v.price === null ? (v.pricing === 'variable' ? 'MP' : '') : decimalAmount(v.price),
      v.price?.currency ?? '',
      v.pricing,
      v.size ?? '',
      v.unit ?? '',
      i === 0 ? (item.description ?? '') : '',
      item.brand ?? '',
      i === 0 ? tagsCell(item.tags) : '',
      item.calories === null ? '' : String(item.calories),
      i === 0 ? item.images.map((image) => image.url).join(' | ') : '',
      v.external_id ?? item.external_id ?? '',
      '',
      '',
      '',
    ];
  });
  if (item.option_names.length > 0)
    run.warnings.add(
      'changed',
      'option_names',
      (n) =>
        `${counted(n, 'item')} with option names (${item.option_names.join(', ')}) have their variants named by the option values: a spreadsheet row has one variant name`,
    );
  for (const group of modifierGroups) {
    if (group.min !== 0 || group.max !== group.modifiers.length)
      run.warnings.add(
        'not_carried',
        'modifier_groups.min_max',
        (n) =>
          `${counted(n, 'modifier group')} had a minimum or maximum choice, which a spreadsheet row has no place for`,
      );
    for (const modifier of group.modifiers) {
      const line = new Array<string>(SPREADSHEET_HEADER.length).fill('');
      line[0] = item.id;
      line[2] = category;
      line[3] = item.name;
      line[18] = group.name;
      line[19] = modifier.name;
      line[20] = modifier.price === null ? '' : decimalAmount(modifier.price);
      lines.push(line);
    }
  }
  return lines;
};
