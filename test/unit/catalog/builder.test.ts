import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CatalogBuilder } from '../../../lambdas/core/catalog/builder';
import { parseCatalogDocumentV1 as parseCatalogDocument } from '../../../lambdas/core/catalog/document-v1';
import { CatalogLimitError, CatalogSourceError } from '../../../lambdas/core/catalog/errors';
import { makeEntityIds } from '../../../lambdas/core/catalog/ids';
import { aCatalogJob, MENU_JOB_ID } from '../../fixtures/catalog/jobs';

const fixture = (name: string) => readFileSync(join(__dirname, '../../fixtures/catalog', name));
const NOW = '2025-01-02T03:04:05.000Z';

const chunks = (bytes: Buffer, size: number): Buffer[] => {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
};

const buildMenu = async (csv: Buffer | string = fixture('menu.csv'), job = aCatalogJob()) => {
  const builder = new CatalogBuilder(job);
  await builder.addCsv('https://files.example.com/menu.csv', [Buffer.from(csv)]);
  return builder.build(NOW);
};

describe('menu CSV', () => {
  test('items, categories, modifier groups and the results summary', async () => {
    const { document, results } = await buildMenu();
    expect(document.categories.map((c) => [c.name, c.sort, c.parent_id])).toEqual([
      ['Pizza', 0, null],
      ['Drinks', 1, null],
      ['Desserts', 2, null],
    ]);
    expect(document.items.map((i) => [i.name, i.price])).toEqual([
      ['Margherita', { amount: 1250, currency: 'USD' }],
      ['Diavola', { amount: 1300, currency: 'USD' }],
      ['Cola', { amount: 250, currency: 'USD' }],
      ['Tiramisu', null],
    ]);
    const margherita = document.items[0];
    expect(margherita).toMatchObject({
      description: 'Tomato, mozzarella, "fresh" basil',
      sku: 'PZ-1',
      size: '12"',
      calories: 850,
      tags: ['vegetarian', 'classic'],
      images: [{ url: 'https://cdn.example.com/pz1.jpg', width: null, height: null }],
      category_id: document.categories[0]?.id,
    });
    expect(document.items[2]?.calories).toBe(140);
    const groupsOf = (index: number) =>
      document.items[index]?.modifier_group_ids.map((id) =>
        document.modifier_groups.find((g) => g.id === id),
      );
    expect(groupsOf(0)).toEqual([
      {
        id: expect.any(String),
        name: 'Size',
        min: 0,
        max: 2,
        modifiers: [
          { id: expect.any(String), name: 'Large', price: { amount: 200, currency: 'USD' } },
          { id: expect.any(String), name: 'Small', price: null },
        ],
      },
      {
        id: expect.any(String),
        name: 'Extras',
        min: 0,
        max: 1,
        modifiers: [{ id: expect.any(String), name: 'Basil', price: { amount: 50, currency: 'USD' } }],
      },
    ]);
    expect(groupsOf(1)?.map((g) => g?.name)).toEqual(['Crust']);
    expect(results).toEqual({
      catalog: { item_count: 4, category_count: 3, modifier_group_count: 4, image_count: 1 },
      warnings: results.warnings,
      warning_count: 5,
      sources: [{ source: 'https://files.example.com/menu.csv', format: 'csv', rows: 12, items: 4 }],
    });
    expect(results.warnings).toEqual([
      {
        source: 'https://files.example.com/menu.csv',
        row: 8,
        column: 'price',
        message: expect.stringContaining('price is not a price'),
      },
      {
        source: 'https://files.example.com/menu.csv',
        row: 9,
        column: 'name',
        message: 'name is required; row skipped',
      },
      {
        source: 'https://files.example.com/menu.csv',
        row: 11,
        column: 'name',
        message: expect.stringContaining('duplicate item "Cola"'),
      },
      {
        source: 'https://files.example.com/menu.csv',
        row: 13,
        column: 'modifier',
        message: expect.stringContaining('duplicate modifier "large"'),
      },
      {
        source: 'https://files.example.com/menu.csv',
        row: 10,
        column: 'price',
        message: expect.stringContaining('"Tiramisu" has modifiers but no row with its own price'),
      },
    ]);
  });

  test('the document validates against the SPEC 5.5 schema', async () => {
    const { document } = await buildMenu();
    const parsed = parseCatalogDocument(JSON.parse(JSON.stringify(document)));
    expect(parsed).toEqual({ ok: true, document });
    expect(document).toMatchObject({
      format_version: 1,
      job_id: MENU_JOB_ID,
      job_type: 'new_menu',
      generated_at: NOW,
      language: 'en_us',
      currency: 'USD',
      merchant: { name: 'Luigi’s', address: '1 Main St', token: 'tok_1' },
      image_mappings: [],
    });
  });

  test('deterministic ids: UUIDv5 of the job id and natural keys; same input, same document', async () => {
    const first = await buildMenu();
    const second = await buildMenu();
    expect(second.document).toEqual(first.document);
    const idOf = makeEntityIds(MENU_JOB_ID);
    expect(first.document.categories[0]?.id).toBe(idOf('category', 'pizza'));
    expect(first.document.items[0]?.id).toBe(idOf('item', 'pizza/margherita'));
    expect(first.document.modifier_groups[0]?.id).toBe(idOf('modifier_group', 'pizza/margherita/size'));
    const other = await buildMenu(undefined, aCatalogJob({ id: '11111111-2222-4333-8444-555555555555' }));
    expect(other.document.items[0]?.id).not.toBe(first.document.items[0]?.id);
  });

  test('chunking of the source does not change the result', async () => {
    const whole = await buildMenu();
    for (const size of [1, 5, 64]) {
      const builder = new CatalogBuilder(aCatalogJob());
      await builder.addCsv('https://files.example.com/menu.csv', chunks(fixture('menu.csv'), size));
      expect(builder.build(NOW)).toEqual(whole);
    }
  });

  test('modifier rows may come before the item row; flattened rows repeat the item', async () => {
    const { document, results } = await buildMenu(
      [
        'category,name,price,modifier_group,modifier,modifier_price',
        'Bowls,Poke,,Base,Rice,0',
        'Bowls,Poke,11.00,,,',
        'Bowls,Ramen,9.50,Spice,Mild,0',
        'Bowls,Ramen,9.50,Spice,Hot,0.50',
      ].join('\n'),
    );
    expect(results.warning_count).toBe(0);
    expect(document.items.map((i) => [i.name, i.price?.amount, i.modifier_group_ids.length])).toEqual([
      ['Poke', 1100, 1],
      ['Ramen', 950, 1],
    ]);
    expect(document.modifier_groups.map((g) => [g.name, g.modifiers.map((m) => m.name)])).toEqual([
      ['Base', ['Rice']],
      ['Spice', ['Mild', 'Hot']],
    ]);
  });

  test('a bad modifier price skips the modifier row with a warning', async () => {
    const { document, warnings } = await buildMenu(
      'category,name,price,modifier_group,modifier,modifier_price\nA,B,1,G,M,free\nA,B,1,G,N,1\n',
    );
    expect(document.modifier_groups[0]?.modifiers.map((m) => m.name)).toEqual(['N']);
    expect(warnings).toEqual([
      expect.objectContaining({
        row: 2,
        column: 'modifier_price',
        message: expect.stringContaining('is not a price'),
      }),
    ]);
  });

  test('missing required columns: a clear error naming them', async () => {
    const builder = new CatalogBuilder(aCatalogJob());
    const error = await builder.addCsv('menu.csv', ['Category,Name,Cost\nA,B,1\n']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogSourceError);
    expect(error).toMatchObject({
      code: 'missing_columns',
      message: expect.stringContaining('missing required column price'),
    });
    expect((error as Error).message).toContain('the header has: category, name, cost');
  });

  test('language sets the currency; ja_jp has no minor units', async () => {
    const { document } = await buildMenu(
      'category,name,price\nRamen,Shoyu,"¥1,200"\n',
      aCatalogJob({ job_data: { language: 'ja_jp' } }),
    );
    expect(document.currency).toBe('JPY');
    expect(document.items[0]?.price).toEqual({ amount: 1200, currency: 'JPY' });
  });
});

describe('retail CSV', () => {
  const buildRetail = async (
    job = aCatalogJob({ job_type: 'new_retail_catalog', job_data: { language: 'en_gb' } }),
  ) => {
    const builder = new CatalogBuilder(job);
    await builder.addCsv('retail.csv', [fixture('retail.csv')]);
    return builder.build(NOW);
  };

  test('category paths, GTIN/UPC, prices, and bad rows as warnings', async () => {
    const { document, results } = await buildRetail();
    const byId = new Map(document.categories.map((c) => [c.id, c]));
    const path = (id: string | null) => {
      const names: string[] = [];
      for (
        let c = id === null ? undefined : byId.get(id);
        c;
        c = c.parent_id === null ? undefined : byId.get(c.parent_id)
      ) {
        names.unshift(c.name);
      }
      return names.join(' > ');
    };
    expect(document.items.map((i) => [i.name, i.sku, i.gtin, path(i.category_id), i.price])).toEqual([
      ['Whole Milk 1L', 'MLK-1', '036000291452', 'Grocery > Dairy > Milk', { amount: 199, currency: 'GBP' }],
      [
        'Oat Drink',
        'OAT-1',
        '4006381333931',
        'Grocery > Dairy > Alternatives',
        { amount: 249, currency: 'EUR' },
      ],
      ['Bad Check', 'BC-1', null, 'Grocery', { amount: 100, currency: 'GBP' }],
      ['Bad price', 'BP-1', null, 'Snacks', null],
      ['Chips', 'CH-1', null, 'Snacks > Chips', { amount: 350, currency: 'GBP' }],
    ]);
    expect(document.categories.map((c) => [c.name, c.sort])).toEqual([
      ['Grocery', 0],
      ['Dairy', 0],
      ['Milk', 0],
      ['Alternatives', 1],
      ['Snacks', 1],
      ['Chips', 0],
    ]);
    expect(document.items[1]).toMatchObject({
      brand: 'Oatly',
      size: '1',
      unit: 'l',
      description: 'Oats; water',
    });
    expect(results.warnings.map((w) => [w.row, w.column, w.message])).toEqual([
      [4, 'gtin', 'gtin has a wrong check digit (expected 2); ignored'],
      [5, 'sku', 'a sku, gtin or upc is required; row skipped'],
      [6, 'gtin', 'gtin must be 8, 12, 13 or 14 digits long (has 5); row skipped (no other identifier)'],
      [7, 'gtin', 'duplicate product (same GTIN as "Whole Milk 1L"); row skipped'],
      [8, 'price', expect.stringContaining('price is not a price')],
      [9, 'name', 'name is required; row skipped'],
    ]);
    expect(results.sources).toEqual([{ source: 'retail.csv', format: 'csv', rows: 9, items: 5 }]);
    expect(parseCatalogDocument(JSON.parse(JSON.stringify(document))).ok).toBe(true);
  });

  test('missing identifier columns: clear error', async () => {
    const builder = new CatalogBuilder(aCatalogJob({ job_type: 'new_retail_catalog' }));
    await expect(builder.addCsv('r.csv', ['name,brand\nA,B\n'])).rejects.toThrow(
      'missing required column one of sku, gtin, upc',
    );
  });

  test('a second source with the same product (UPC vs GTIN-14) is not added twice', async () => {
    const builder = new CatalogBuilder(aCatalogJob({ job_type: 'new_retail_catalog' }));
    await builder.addCsv('a.csv', ['name,upc\nMilk,036000291452\n']);
    const second = await builder.addCsv('b.csv', ['name,gtin\nMilk again,00036000291452\nOther,96385074\n']);
    expect(second).toEqual({ source: 'b.csv', format: 'csv', rows: 2, items: 1 });
    expect(builder.build(NOW).document.items.map((i) => i.name)).toEqual(['Milk', 'Other']);
  });
});

describe('client_mappings', () => {
  test('categories and items (by name or sku) get external_id; other keys are ignored', async () => {
    const job = aCatalogJob({
      job_data: {
        client_mappings: {
          categories: { Pizza: 'cat-1', drinks: 'cat-2', Nope: 'x' },
          items: { 'PZ-1': 'item-1', Cola: 42, Diavola: { bad: true } },
          other: { kept: 'elsewhere' },
        },
      },
    });
    const { document, results } = await buildMenu(undefined, job);
    expect(document.categories.map((c) => [c.name, c.external_id])).toEqual([
      ['Pizza', 'cat-1'],
      ['Drinks', 'cat-2'],
      ['Desserts', null],
    ]);
    expect(document.items.map((i) => [i.name, i.external_id])).toEqual([
      ['Margherita', 'item-1'],
      ['Diavola', null],
      ['Cola', '42'],
      ['Tiramisu', null],
    ]);
    expect(results.warnings).toContainEqual({
      source: 'client_mappings',
      row: null,
      column: 'items.Diavola',
      message: expect.stringContaining('must be a non-empty string'),
    });
  });

  test('retail categories match by full path or by name', async () => {
    const builder = new CatalogBuilder(
      aCatalogJob({
        job_type: 'new_retail_catalog',
        job_data: { client_mappings: { categories: { 'Grocery > Dairy': 'c-dairy', Grocery: 'c-g' } } },
      }),
    );
    await builder.addCsv('r.csv', ['name,sku,category\nMilk,M1,Grocery>Dairy\n']);
    expect(builder.build(NOW).document.categories.map((c) => c.external_id)).toEqual(['c-g', 'c-dairy']);
  });
});

describe('limits and sources', () => {
  test('more items than the limit: a clear error', async () => {
    const builder = new CatalogBuilder(aCatalogJob(), { maxItems: 3 });
    const csv = `category,name,price\n${['a', 'b', 'c', 'd'].map((n) => `X,${n},1`).join('\n')}\n`;
    const error = await builder.addCsv('big.csv', [csv]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogLimitError);
    expect(error).toMatchObject({
      code: 'too_many_items',
      message: expect.stringContaining('more than 3 items'),
    });
    expect(builder.sources).toEqual([{ source: 'big.csv', format: 'csv', rows: 4, items: 3 }]);
  });

  test('warnings: all counted, the first 100 kept', async () => {
    const builder = new CatalogBuilder(aCatalogJob());
    const csv = `category,name,price\n${Array.from({ length: 250 }, (_, i) => `X,n${i},bad`).join('\n')}\n`;
    await builder.addCsv('bad.csv', [csv]);
    const { results, warnings, warningCount } = builder.build(NOW);
    expect(results.warning_count).toBe(250);
    expect(warningCount).toBe(250);
    expect(results.warnings).toHaveLength(100);
    expect(warnings).toHaveLength(100);
    expect(results.warnings[0]?.row).toBe(2);
  });

  test('addSource: a PDF is not read and is reported for review', async () => {
    const builder = new CatalogBuilder(aCatalogJob());
    let pulled = 0;
    async function* pdf() {
      yield Buffer.from('%PDF-1.7\n');
      pulled += 1;
      yield Buffer.alloc(10_000);
    }
    const outcome = await builder.addSource({
      source: 'https://x.test/menu',
      body: pdf(),
      contentType: 'application/pdf',
    });
    expect(outcome).toEqual({
      readable: false,
      source: 'https://x.test/menu',
      format: 'pdf',
      rows: 0,
      items: 0,
    });
    expect(pulled).toBeLessThanOrEqual(1);
  });

  test('addSource: CSV detected by sniffing, JSON rows, and a catalog document', async () => {
    const builder = new CatalogBuilder(aCatalogJob());
    const csv = await builder.addSource({
      source: 'upload-1',
      body: [Buffer.from('category;name;price\nA;B;1,50\n')],
      contentType: 'application/octet-stream',
    });
    expect(csv).toEqual({ readable: true, source: 'upload-1', format: 'csv', rows: 1, items: 1 });
    const rows = await builder.addSource({
      source: 'rows.json',
      body: [
        Buffer.from(
          JSON.stringify([
            { Category: 'A', Name: 'C', price: 2.5, tags: ['x', 'y'] },
            { category: 'A', name: 'D' },
            'not an object',
          ]),
        ),
      ],
    });
    expect(rows).toEqual({ readable: true, source: 'rows.json', format: 'json', rows: 3, items: 1 });
    const built = builder.build(NOW);
    expect(built.document.items.map((i) => [i.name, i.price?.amount, i.tags])).toEqual([
      ['B', 150, []],
      ['C', 250, ['x', 'y']],
    ]);
    expect(built.warnings.map((w) => [w.source, w.row, w.column])).toEqual([
      ['rows.json', 2, 'price'],
      ['rows.json', 3, 'category'],
    ]);

    // The finished document as a source of another job: same content, this job's ids.
    const next = new CatalogBuilder(aCatalogJob({ id: '11111111-2222-4333-8444-555555555555' }));
    const outcome = await next.addSource({
      source: 'prev.json',
      body: [Buffer.from(JSON.stringify(built.document))],
    });
    expect(outcome).toEqual({ readable: true, source: 'prev.json', format: 'json', rows: 2, items: 2 });
    const rebuilt = next.build(NOW).document;
    expect(rebuilt.items.map((i) => [i.name, i.price, i.tags])).toEqual(
      built.document.items.map((i) => [i.name, i.price, i.tags]),
    );
    expect(rebuilt.items[0]?.id).toBe(makeEntityIds('11111111-2222-4333-8444-555555555555')('item', 'a/b'));
  });

  test('invalid JSON and invalid documents are clear source errors', async () => {
    const builder = new CatalogBuilder(aCatalogJob());
    await expect(
      builder.addSource({
        source: 's',
        body: ['{"format_version": 1, "items": 3'],
        contentType: 'application/json',
      }),
    ).rejects.toMatchObject({
      code: 'source_unreadable',
    });
    await expect(builder.addSource({ source: 's', body: ['{"format_version": 2}'] })).rejects.toMatchObject({
      code: 'invalid_document',
      message: expect.stringContaining('/format_version'),
    });
    await expect(builder.addSource({ source: 's', body: ['{"rows": []}'] })).rejects.toThrow(
      'must be a catalog document (with format_version) or an array of row objects',
    );
  });
});
