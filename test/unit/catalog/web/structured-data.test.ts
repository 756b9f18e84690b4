import { parseHtml } from '../../../../lambdas/core/catalog/web/html';
import { readStructuredData } from '../../../../lambdas/core/catalog/web/schema-org';
import type { WebReadContext } from '../../../../lambdas/core/catalog/web/types';
import { jsonLdPage, page } from '../../../fixtures/web/pages';

const menu: WebReadContext = { source: 'test', kind: 'menu', currency: 'USD' };
const retail: WebReadContext = { source: 'test', kind: 'retail', currency: 'USD' };

const read = (html: string, context = menu, url = 'https://site.example/menu/') =>
  readStructuredData(parseHtml(html), url, context);

const usd = (amount: number) => ({ amount, currency: 'USD' });

describe('schema.org menus in JSON-LD', () => {
  const result = read(page('restaurant-graph.html'), menu, 'https://trattoria-sole.example/menu/');
  const byName = (name: string) => result.items.find((i) => i.name === name);

  it('follows Restaurant.hasMenu through @graph and @id into nested sections', () => {
    expect(result.found).toBe('menu');
    expect(result.syntax).toBe('json-ld');
    expect(result.items.map((i) => [i.categoryPath.join(' > '), i.name])).toEqual([
      ['Pizza > Red', 'Margherita'],
      ['Pizza > Red', 'Diavola'],
      ['Pizza > White', 'Quattro Formaggi'],
      ['From the Sea', 'Whole Branzino'],
      ['From the Sea', 'Mussels'],
      ['Drinks', 'House Red'],
    ]);
  });

  it('makes several offers variants named by the offer, string and numeric prices in minor units', () => {
    const margherita = byName('Margherita');
    expect(margherita?.optionNames).toEqual(['Size']);
    expect(margherita?.variants.map((v) => [v.name, v.options, v.price])).toEqual([
      ['Small', { Size: 'Small' }, usd(1250)],
      ['Large', { Size: 'Large' }, usd(1800)],
    ]);
    expect(byName('House Red')?.variants.map((v) => [v.name, v.price?.amount])).toEqual([
      ['Glass', 900],
      ['Bottle', 3400],
    ]);
  });

  it('reads one offer as one unnamed variant; a price without a currency takes the job currency', () => {
    expect(byName('Diavola')?.variants).toEqual([
      { name: null, options: {}, price: usd(1500), pricing: 'fixed', sku: null, gtin: null, images: [] },
    ]);
    expect(byName('Quattro Formaggi')?.variants[0]?.price).toEqual(usd(1650));
  });

  it('reads descriptions (entities decoded), images, diets as tags and calories', () => {
    const margherita = byName('Margherita');
    expect(margherita?.description).toBe('San Marzano tomato, fior di latte, basil');
    expect(byName('Diavola')?.description).toBe('Tomato, mozzarella, spicy salami & chili');
    expect(margherita?.images).toEqual([
      { url: 'https://trattoria-sole.example/images/margherita.jpg', width: null, height: null },
    ]);
    expect(margherita?.tags).toEqual(['vegetarian']);
    expect(byName('Quattro Formaggi')?.tags).toEqual(['vegetarian', 'gluten-free']);
    expect(margherita?.calories).toBe(850);
  });

  it('keeps a market price as variable and an unreadable price as a warning', () => {
    expect(byName('Whole Branzino')?.variants[0]).toMatchObject({ price: null, pricing: 'variable' });
    expect(byName('Mussels')?.variants[0]).toMatchObject({ price: null, pricing: 'fixed' });
    expect(result.warnings.map((w) => w.code)).toEqual(['not_a_price', 'missing_name']);
    expect(result.warnings[0]?.message).toContain('Mussels');
  });

  it('puts each of several named menus at the top of the category path', () => {
    const twoMenus = read(page('two-menus.html'), { source: 'test', kind: 'menu', currency: 'EUR' });
    expect(twoMenus.items.map((i) => [i.categoryPath.join(' > '), i.name, i.variants[0]?.price])).toEqual([
      ['Mittagskarte', 'Tagessuppe', { amount: 550, currency: 'EUR' }],
      ['Mittagskarte', 'Schnitzel Wiener Art', { amount: 1290, currency: 'EUR' }],
      ['Abendkarte > Hauptgerichte', 'Rinderroulade', { amount: 1980, currency: 'EUR' }],
      ['Abendkarte > Hauptgerichte', 'Schnitzel Wiener Art', { amount: 1690, currency: 'EUR' }],
    ]);
  });

  it('reads @type arrays, prefixed types and a lone MenuItem outside any menu', () => {
    const result = read(
      jsonLdPage({
        '@context': { schema: 'https://schema.org/' },
        '@type': ['schema:MenuItem', 'Thing'],
        'schema:name': 'Lemonade',
        offers: { '@type': 'offer', price: '3.5', priceCurrency: 'usd' },
      }),
    );
    expect(result.items.map((i) => [i.name, i.categoryPath, i.variants[0]?.price])).toEqual([
      ['Lemonade', [], usd(350)],
    ]);
  });

  it('repairs the JSON real pages serve and says when a block is beyond repair', () => {
    const broken = `<!--
      {"@type": "Menu", "hasMenuItem": [{"@type": "MenuItem", "name": "Chai
        Latte", "offers": {"price": "4.00",},},],}
    -->`;
    const result = read(jsonLdPage(broken, '{"@type": "MenuItem", "name": '));
    expect(result.items.map((i) => [i.name, i.variants[0]?.price])).toEqual([['Chai Latte', usd(400)]]);
    expect(result.warnings).toEqual([
      expect.objectContaining({ code: 'invalid_json_ld', message: expect.stringContaining('block 2') }),
    ]);
  });

  it('follows a restaurant menu given only by URL', () => {
    const result = read(
      jsonLdPage({ '@type': 'Restaurant', name: 'Chez Nous', hasMenu: '/carte.html' }),
      menu,
      'https://chez-nous.example/',
    );
    expect(result.items).toEqual([]);
    expect(result.menuLinks).toEqual(['https://chez-nous.example/carte.html']);
    const described = read(
      jsonLdPage({
        '@type': 'Restaurant',
        hasMenu: [{ '@type': 'Menu', name: 'Dinner', url: 'https://chez-nous.example/dinner' }],
      }),
      menu,
      'https://chez-nous.example/',
    );
    expect(described.menuLinks).toEqual(['https://chez-nous.example/dinner']);
  });

  it('reads a menu item add-on section as a modifier group', () => {
    const result = read(
      jsonLdPage({
        '@type': 'MenuItem',
        name: 'Burger',
        offers: { price: 14 },
        menuAddOn: {
          '@type': 'MenuSection',
          name: 'Extras',
          hasMenuItem: [
            { '@type': 'MenuItem', name: 'Bacon', offers: { price: '2.00' } },
            { '@type': 'MenuItem', name: 'Cheddar', offers: { price: 1.5 } },
          ],
        },
      }),
    );
    expect(result.items).toHaveLength(1);
    expect(result.items[0]?.modifierGroups).toEqual([
      {
        name: 'Extras',
        modifiers: [
          { name: 'Bacon', price: usd(200) },
          { name: 'Cheddar', price: usd(150) },
        ],
      },
    ]);
  });
});

describe('schema.org menus in microdata', () => {
  const result = read(page('microdata-menu.html'), menu, 'https://bluedoor.example/');

  it('reads itemscope / itemprop, content attributes and itemref', () => {
    expect(result.syntax).toBe('microdata');
    expect(
      result.items.map((i) => [i.categoryPath.join(' > '), i.name, i.variants.map((v) => [v.name, v.price])]),
    ).toEqual([
      ['Breakfast', 'Avocado Toast', [[null, usd(1100)]]],
      ['Breakfast', 'Granola Bowl', [[null, usd(950)]]],
      [
        'Coffee',
        'Latte',
        [
          ['12 oz', usd(450)],
          ['16 oz', usd(525)],
        ],
      ],
    ]);
    const toast = result.items[0];
    expect(toast?.description).toBe('Sourdough, chili flakes, lime');
    expect(toast?.images?.[0]?.url).toBe('https://bluedoor.example/img/avo.jpg');
    expect(toast?.tags).toEqual(['vegan']);
    expect(toast?.calories).toBe(420);
  });
});

describe('schema.org products', () => {
  it('reads a ProductGroup with hasVariant: options, GTINs, SKUs, brand object, category path', () => {
    const result = read(
      page('shopify-product.html'),
      { source: 'test', kind: 'retail', currency: 'USD' },
      'https://northfield.example/products/merino-beanie',
    );
    expect(result.found).toBe('products');
    expect(result.items).toHaveLength(1);
    const [beanie] = result.items;
    expect(beanie).toMatchObject({
      name: 'Merino Beanie',
      brand: 'Northfield',
      categoryPath: ['Apparel & Accessories', 'Clothing Accessories', 'Hats'],
      description: 'A warm beanie knitted from 100% merino.\nHand wash.',
    });
    expect(beanie?.variants.map((v) => [v.name, v.sku, v.gtin, v.price])).toEqual([
      ['Charcoal / One size', 'MB-CHA', '0614141000036', { amount: 3400, currency: 'CAD' }],
      ['Rust / One size', 'MB-RUS', '0614141000043', { amount: 3400, currency: 'CAD' }],
      ['Rust / Kids', 'MB-RUS-K', '0614141000050', { amount: 2900, currency: 'CAD' }],
    ]);
    expect(beanie?.variants[0]?.images?.[0]?.url).toBe(
      'https://northfield.example/cdn/shop/files/beanie-charcoal.jpg?v=1&width=1920',
    );
  });

  it('reads variesBy options from the variants', () => {
    const result = read(
      jsonLdPage({
        '@type': 'ProductGroup',
        name: 'Tee',
        variesBy: ['https://schema.org/size', 'https://schema.org/color'],
        hasVariant: [
          {
            '@type': 'Product',
            sku: 'TEE-S-W',
            size: 'S',
            color: 'White',
            offers: { price: '20.00', priceCurrency: 'USD' },
          },
          {
            '@type': 'Product',
            sku: 'TEE-M-W',
            size: { '@type': 'SizeSpecification', name: 'M' },
            color: 'White',
            offers: { price: 22 },
          },
        ],
      }),
      retail,
    );
    expect(result.items[0]?.optionNames).toEqual(['Size', 'Color']);
    expect(result.items[0]?.variants.map((v) => [v.name, v.options, v.price?.amount])).toEqual([
      ['S / White', { Size: 'S', Color: 'White' }, 2000],
      ['M / White', { Size: 'M', Color: 'White' }, 2200],
    ]);
  });

  it('groups Products that name their group with isVariantOf', () => {
    const result = read(
      jsonLdPage({
        '@graph': [
          { '@type': 'ProductGroup', '@id': '#g', name: 'Mug', brand: 'Acme' },
          {
            '@type': 'Product',
            isVariantOf: { '@id': '#g' },
            color: 'Blue',
            sku: 'MUG-B',
            offers: { price: 9 },
          },
          {
            '@type': 'Product',
            isVariantOf: { '@id': '#g' },
            color: 'Red',
            sku: 'MUG-R',
            offers: { price: 9 },
          },
        ],
      }),
      retail,
    );
    expect(result.items.map((i) => [i.name, i.brand, i.variants.map((v) => v.name)])).toEqual([
      ['Mug', 'Acme', ['Blue', 'Red']],
    ]);
  });

  it('reads a WooCommerce product: GTIN-13, priceSpecification currency, breadcrumb as category', () => {
    const result = read(
      page('woocommerce-product.html'),
      retail,
      'https://kettle-and-co.example/product/enamel-kettle/',
    );
    expect(result.items).toEqual([
      {
        kind: 'item',
        categoryPath: ['Kitchen', 'Kettles'],
        name: 'Enamel Kettle',
        description: 'A 1.5 litre enamel kettle for gas, electric and induction hobs.',
        brand: 'Kettle & Co',
        tags: [],
        calories: null,
        images: [
          {
            url: 'https://kettle-and-co.example/wp-content/uploads/2024/03/kettle.jpg',
            width: null,
            height: null,
          },
        ],
        optionNames: [],
        variants: [
          {
            name: null,
            options: {},
            price: { amount: 3995, currency: 'GBP' },
            pricing: 'fixed',
            sku: 'KET-ENA-15',
            gtin: '5012345678900',
            images: [],
          },
        ],
      },
    ]);
  });

  it('keeps a product whose price is a range without a price, and warns', () => {
    const result = read(
      jsonLdPage({
        '@type': 'Product',
        name: 'Widget',
        offers: { '@type': 'AggregateOffer', lowPrice: '21.99', highPrice: '27.99', priceCurrency: 'GBP' },
      }),
      retail,
    );
    expect(result.items[0]?.variants[0]?.price).toBeNull();
    expect(result.warnings.map((w) => w.code)).toEqual(['not_a_price']);
  });

  it('warns about a GTIN with a wrong check digit and keeps the product', () => {
    const result = read(
      jsonLdPage({ '@type': 'Product', name: 'Soap', gtin12: '036000291453', offers: { price: 3 } }),
      retail,
    );
    expect(result.items[0]?.variants[0]?.gtin).toBeNull();
    expect(result.warnings).toEqual([expect.objectContaining({ code: 'bad_check_digit', field: 'gtin12' })]);
  });

  it('prefers the kind of data the job is for when a page has both', () => {
    const html = jsonLdPage(
      { '@type': 'Product', name: 'Gift card', offers: { price: 50 } },
      { '@type': 'Menu', hasMenuItem: { '@type': 'MenuItem', name: 'Soup', offers: { price: 6 } } },
    );
    expect(read(html, menu).items.map((i) => i.name)).toEqual(['Soup']);
    expect(read(html, retail).items.map((i) => i.name)).toEqual(['Gift card']);
  });

  it('finds nothing on a page without structured data', () => {
    const result = read('<html><body><h1>Hello</h1></body></html>');
    expect(result).toEqual({ items: [], found: null, syntax: null, menuLinks: [], warnings: [] });
  });

  it('survives @id references that loop', () => {
    const result = read(
      jsonLdPage({
        '@graph': [
          {
            '@id': '#a',
            '@type': 'Product',
            name: { '@id': '#b' },
            brand: { '@id': '#a' },
            offers: { price: 1 },
          },
          { '@id': '#b', name: { '@id': '#a' } },
          {
            '@type': 'Menu',
            '@id': '#m',
            hasMenuSection: { '@id': '#m' },
            hasMenuItem: { '@type': 'MenuItem', name: 'Tea', offers: { price: 2 } },
          },
        ],
      }),
      retail,
    );
    // The nameless product is no product, so the page's menu is what it offers.
    expect(result.items.map((i) => i.name)).toEqual(['Tea']);
  });
});
