import type { Doc } from '../../../console/src/catalog/model';

/** A small valid format 2 draft: two categories, three items (one with two variants), one modifier group. */
export const aDraft = (): Doc => {
  let n = 0;
  const id = () => {
    n += 1;
    return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  };
  const [pizza, drinks, group, margherita, diavola, cola] = [id(), id(), id(), id(), id(), id()];
  const variant = (amount: number | null, name: string | null = null) => ({
    id: id(),
    name,
    options: (name ? { Size: name } : {}) as Record<string, string>,
    sku: null,
    gtin: null,
    size: null,
    unit: null,
    price: amount === null ? null : { amount, currency: 'USD' },
    pricing: 'fixed' as const,
    images: [],
    external_id: null,
  });
  const item = (
    itemId: string,
    name: string,
    category: string | null,
    variants: Doc['items'][number]['variants'],
  ) => ({
    id: itemId,
    name,
    description: null,
    category_id: category,
    brand: null,
    tags: [],
    calories: null,
    modifier_group_ids: [] as string[],
    images: [],
    external_id: null,
    option_names: variants.length > 1 ? ['Size'] : [],
    variants,
  });
  return {
    format_version: 2,
    job_id: '11111111-1111-4111-8111-111111111111',
    job_type: 'new_menu',
    generated_at: '2026-01-01T00:00:00.000Z',
    language: 'en_us',
    currency: 'USD',
    merchant: { name: "Joe's Diner", address: null, token: null },
    categories: [
      { id: pizza, name: 'Pizza', parent_id: null, sort: 0, external_id: null },
      { id: drinks, name: 'Drinks', parent_id: null, sort: 1, external_id: null },
    ],
    items: [
      { ...item(margherita, 'Margherita', pizza, [variant(1250)]), modifier_group_ids: [group] },
      item(diavola, 'Diavola', pizza, [variant(1400, 'Small'), variant(1900, 'Large')]),
      item(cola, 'Cola', drinks, [variant(250)]),
    ],
    modifier_groups: [
      {
        id: group,
        name: 'Extras',
        min: 0,
        max: 2,
        modifiers: [
          { id: id(), name: 'Olives', price: { amount: 100, currency: 'USD' } },
          { id: id(), name: 'Basil', price: null },
        ],
      },
    ],
    image_mappings: [],
  };
};

let counter = 0;
export const newId = (): string => {
  counter += 1;
  return `99999999-0000-4000-8000-${String(counter).padStart(12, '0')}`;
};
