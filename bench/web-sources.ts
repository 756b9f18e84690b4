/**
 * Web source reading cost, each against the baseline of merely parsing what was fetched (in one run):
 *   1. a plain HTML menu of N dishes: parseHtml alone vs. the draft (lines, prices, cards, provenance);
 *   2. a JSON-LD menu of N dishes: JSON.parse of the block vs. readStructuredData (page parse included);
 *   3. Shopify /products.json pages of 250 products: JSON.parse vs. mapShopifyProducts on the parsed page.
 * Prints items/s and the ratio to the baseline.
 *
 *   npx tsx bench/web-sources.ts [dishes]
 */
import { parseHtml } from '../lambdas/core/catalog/web/html';
import { draftFromPage } from '../lambdas/core/catalog/web/html-draft';
import { readStructuredData } from '../lambdas/core/catalog/web/schema-org';
import { mapShopifyProducts, shopifyProductsOf } from '../lambdas/core/catalog/web/shopify';
import { shopifyPage } from '../test/fixtures/web/stores';

const dishes = Number(process.argv[2] ?? 5_000);
const context = { source: 'https://bench.example/menu', kind: 'menu' as const, currency: 'USD' };

const time = (run: () => unknown, repeat = 3): number => {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < repeat; i++) {
    const start = process.hrtime.bigint();
    run();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return best;
};

const report = (what: string, count: number, baseline: number, measured: number) => {
  const rate = Math.round(count / (measured / 1000));
  console.log(
    `${what}: ${count} items in ${measured.toFixed(0)} ms (${rate.toLocaleString('en')} items/s); ` +
      `baseline ${baseline.toFixed(0)} ms, ${(measured / baseline).toFixed(1)}× the baseline`,
  );
};

const sections = Math.max(1, Math.round(dishes / 40));
const plain = `<!doctype html><html><body><main><h1>Menu</h1>${Array.from(
  { length: sections },
  (_, s) =>
    `<section><h2>Section ${s + 1}</h2><ul>${Array.from(
      { length: Math.ceil(dishes / sections) },
      (_, d) =>
        `<li class="menu-item"><span class="name">Dish ${s}-${d}</span><span class="price">$${(d % 30) + 5}.50</span><p class="description">Slow-cooked, with seasonal vegetables and herbs</p></li>`,
    ).join('')}</ul></section>`,
).join('')}</main></body></html>`;
const plainBaseline = time(() => parseHtml(plain));
let drafted = 0;
const plainMeasured = time(() => {
  drafted = draftFromPage(parseHtml(plain), 'https://bench.example/menu', context).length;
});
report(
  `plain HTML menu draft (${(plain.length / 1024 / 1024).toFixed(1)} MB)`,
  drafted,
  plainBaseline,
  plainMeasured,
);

const menu = {
  '@context': 'https://schema.org',
  '@type': 'Menu',
  hasMenuSection: Array.from({ length: sections }, (_, s) => ({
    '@type': 'MenuSection',
    name: `Section ${s + 1}`,
    hasMenuItem: Array.from({ length: Math.ceil(dishes / sections) }, (_, d) => ({
      '@type': 'MenuItem',
      name: `Dish ${s}-${d}`,
      description: 'Slow-cooked, with seasonal vegetables and herbs',
      offers: [
        { '@type': 'Offer', name: 'Small', price: `${(d % 30) + 5}.50`, priceCurrency: 'USD' },
        { '@type': 'Offer', name: 'Large', price: (d % 30) + 9, priceCurrency: 'USD' },
      ],
      suitableForDiet: 'https://schema.org/VegetarianDiet',
    })),
  })),
};
const block = JSON.stringify(menu);
const page = `<!doctype html><html><head><script type="application/ld+json">${block}</script></head><body></body></html>`;
const ldBaseline = time(() => JSON.parse(block));
let read = 0;
const ldMeasured = time(() => {
  read = readStructuredData(parseHtml(page), 'https://bench.example/menu', context).items.length;
});
report(`JSON-LD menu (${(page.length / 1024 / 1024).toFixed(1)} MB)`, read, ldBaseline, ldMeasured);

const pages = Array.from({ length: 8 }, (_, p) => JSON.stringify(shopifyPage(2_000, p + 1, 250)));
const shopBaseline = time(() => pages.map((p) => JSON.parse(p)));
let mapped = 0;
const parsed = pages.map((p) => shopifyProductsOf(JSON.parse(p)) ?? []);
const shopMeasured = time(() => {
  mapped = parsed.reduce(
    (n, products) =>
      n + mapShopifyProducts(products, { currency: 'USD', storeUrl: 'https://bench.example/' }).items.length,
    0,
  );
});
report('Shopify products.json mapping (8 pages)', mapped, shopBaseline, shopMeasured);
