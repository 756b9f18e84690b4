import type { ExportWriter } from '../formats-types';
import { type ItemRows, itemRows, type VariantRow } from '../rows';
import type { StoredCatalog } from '../stored-catalog';
import { counted, ExportWarnings } from '../warnings';

/**
 * The body of the Uber Eats Menu API's menu upload (developer.uber.com "Menu Integration", "Upload Menu",
 * "Example Menu Payloads"): `items`, `modifier_groups`, `categories` and `menus`, names as `translations`
 * keyed by the job's language, prices as integers in minor units (`price_info.price`). Uber Eats has no
 * variants: an item sold in several forms is an item at its lowest price with a required modifier group
 * (choose exactly one) whose options are the forms, each at the difference; a modifier group keeps its
 * minimum and maximum as `quantity_info`, its modifiers being items of their own. Categories are flat (a
 * subcategory is written under its own name); the menu is available at all hours (the catalog has none).
 * A menu upload replaces the store's whole menu, so it is one file, never split; the map of categories to
 * their items (ids only) is the one thing held while the items stream.
 */
const rowsOf = (catalog: StoredCatalog, warnings: ExportWarnings): AsyncIterable<ItemRows> =>
  itemRows(catalog, {
    target: 'an Uber Eats menu',
    carries: new Set(['description', 'images', 'modifier_groups', 'category', 'calories', 'external_id']),
    warnings,
  });

/** The variants Uber Eats can sell: those priced in the menu's currency. */
const pricedRows = (rows: ItemRows, currency: string): VariantRow[] =>
  rows.variants.filter((r) => r.variant.price !== null && r.variant.price.currency === currency);

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

export const ubereatsMenuJson: ExportWriter = {
  contentType: 'application/json',
  fileName: 'menu.json',
  jobTypes: ['new_menu'],
  async *write(run) {
    const catalog = await run.catalog();
    const { head, categories, modifierGroups } = catalog.index;
    const w = run.warnings;
    const text = (value: string) => ({ translations: { [head.language]: value } });
    const inCategory = new Map<string, string[]>();
    let items = 0;
    let first = true;
    const entry = (value: unknown): string => {
      const out = `${first ? '' : ',\n'}${JSON.stringify(value)}`;
      first = false;
      return out;
    };
    const part = async function* (): AsyncGenerator<string> {
      let buffer = '';
      const flush = function* (): Generator<string> {
        if (buffer.length > 64 * 1024) {
          yield buffer;
          buffer = '';
        }
      };
      // First pass: the modifier groups, the forms of items sold in several forms among them.
      yield '{"modifier_groups":[\n';
      for await (const rows of rowsOf(catalog, new ExportWarnings())) {
        const priced = pricedRows(rows, head.currency);
        if (priced.length < 2) continue;
        buffer += entry({
          id: `forms-${rows.item.id}`,
          title: text(
            rows.optionNames.length > 0
              ? `Choose ${rows.optionNames.join(' / ').toLowerCase()}`
              : 'Choose one',
          ),
          quantity_info: { quantity: { min_permitted: 1, max_permitted: 1 } },
          modifier_options: priced.map((r) => ({ id: r.variant.id, type: 'ITEM' })),
        });
        yield* flush();
      }
      for (const group of modifierGroups.values())
        buffer += entry({
          id: group.id,
          title: text(group.name),
          quantity_info: { quantity: { min_permitted: group.min, max_permitted: group.max } },
          modifier_options: group.modifiers.map((m) => ({ id: m.id, type: 'ITEM' })),
        });
      yield `${buffer}\n],"items":[\n`;
      buffer = '';
      first = true;
      // Second pass: the items, each form of an item, and each modifier as an item of its own.
      for await (const rows of rowsOf(catalog, w)) {
        const { item } = rows;
        const priced = pricedRows(rows, head.currency);
        if (priced.length < rows.variants.length)
          w.add(
            'left_out',
            'variants.price',
            (n) =>
              `${counted(n, 'variant')} without a price in ${head.currency} (market prices) were left out: every Uber Eats item needs one`,
            rows.variants.length - priced.length,
          );
        if (priced.length === 0) continue;
        const base = Math.min(...priced.map((r) => r.variant.price?.amount ?? 0));
        const groupIds = rows.modifierGroups.map((g) => g.id);
        if (priced.length > 1) {
          groupIds.unshift(`forms-${item.id}`);
          for (const r of priced)
            buffer += entry({
              id: r.variant.id,
              title: text(r.label ?? r.optionValues.join(', ')),
              price_info: { price: (r.variant.price?.amount ?? base) - base },
            });
        }
        buffer += entry({
          id: item.id,
          external_data: item.external_id ?? item.id,
          title: text(item.name),
          ...(item.description === null ? {} : { description: text(item.description) }),
          ...(item.images[0] === undefined ? {} : { image_url: item.images[0].url }),
          price_info: { price: base },
          ...(item.calories === null
            ? {}
            : { nutritional_info: { calories: { lower_range: item.calories, upper_range: item.calories } } }),
          ...(groupIds.length === 0 ? {} : { modifier_group_ids: { ids: groupIds } }),
        });
        items += 1;
        const category = item.category_id ?? '';
        const list = inCategory.get(category) ?? [];
        list.push(item.id);
        inCategory.set(category, list);
        yield* flush();
      }
      for (const group of modifierGroups.values())
        for (const modifier of group.modifiers) {
          if (modifier.price !== null && modifier.price.currency !== head.currency)
            w.add(
              'changed',
              'modifier_groups.modifiers.price',
              (n) =>
                `${counted(n, 'modifier')} priced in another currency than ${head.currency} were written at 0`,
            );
          buffer += entry({
            id: modifier.id,
            title: text(modifier.name),
            price_info: { price: modifier.price?.currency === head.currency ? modifier.price.amount : 0 },
          });
        }
      yield `${buffer}\n],"categories":[\n`;
      buffer = '';
      first = true;
      for (const [id, itemIds] of inCategory) {
        const category = categories.get(id);
        if (category?.parent_id)
          w.add(
            'changed',
            'category',
            (n) =>
              `${counted(n, 'subcategory', 'subcategories')} written as categories of their own: Uber Eats menus have one level`,
          );
        if (category === undefined)
          w.add(
            'changed',
            'category',
            (n) => `${counted(n, 'item')} without a category were put in one named "Other"`,
            itemIds.length,
          );
        buffer += entry({
          id: category?.id ?? 'other',
          title: text(category?.name ?? 'Other'),
          entities: itemIds.map((itemId) => ({ id: itemId, type: 'ITEM' })),
        });
        yield* flush();
      }
      w.add(
        'assumed',
        'service_availability',
        () => 'the menu was written as open every day from 00:00 to 23:59: the catalog has no opening hours',
      );
      yield `${buffer}\n],"menus":[${JSON.stringify({
        id: 'menu',
        title: text(head.merchant.name),
        service_availability: DAYS.map((day) => ({
          day_of_week: day,
          time_periods: [{ start_time: '00:00', end_time: '23:59' }],
        })),
        category_ids: [...inCategory.keys()].map((id) => categories.get(id)?.id ?? 'other'),
      })}]}\n`;
    };
    yield { index: 1, chunks: part(), itemCount: () => items };
  },
};
