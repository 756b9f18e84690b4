import { buildCsv } from '../../../fixtures/catalog/build';
import { aCatalogJob } from '../../../fixtures/catalog/jobs';

/** WooCommerce writes its export's header in the store's language; each is read as the English one. */

const retail = (language: 'fr_fr' | 'es_es' | 'de_de') =>
  aCatalogJob({ job_type: 'new_retail_catalog', job_data: { language } });

const summary = async (csv: string, language: 'fr_fr' | 'es_es' | 'de_de') => {
  const { document, results } = await buildCsv(csv, retail(language), 'products.csv');
  const paths = new Map(document.categories.map((c) => [c.id, c.name]));
  return {
    profile: results.sources?.[0]?.profile,
    items: document.items.map((i) => [
      i.name,
      i.category_id === null ? null : paths.get(i.category_id),
      i.option_names,
      i.variants.map((v) => [v.name, v.sku, v.price?.amount ?? null]),
    ]),
    warnings: results.warning_count,
  };
};

const expected = (category: string, option: string) => ({
  profile: 'woocommerce',
  items: [
    ['Mug', 'Maison', [], [[null, 'MUG', 1250]]],
    [
      'T-shirt',
      category,
      [option],
      [
        ['S', 'TS-S', 1990],
        ['M', 'TS-M', 2190],
      ],
    ],
  ],
  warnings: 0,
});

describe('WooCommerce exports in the store language', () => {
  test('French: Nom, UGS, Tarif régulier, Catégories, Parent, Nom / Valeur(s) de l’attribut 1', async () => {
    const csv = [
      'ID,Type,UGS,Nom,Description,Tarif promo,Tarif régulier,Catégories,Images,Parent,Nom de l’attribut 1,Valeur(s) de l’attribut 1,Attribut 1 visible',
      '10,variable,TS,T-shirt,<p>Coton</p>,,,Vêtements > T-shirts,https://ex.com/ts.jpg,,Taille,"S, M",1',
      '11,variation,TS-S,T-shirt - S,,,"19,90",,,id:10,Taille,S,',
      '12,variation,TS-M,T-shirt - M,,,"21,90",,,id:10,Taille,M,',
      '13,simple,MUG,Mug,,"9,00","12,50",Maison,,,,,',
    ].join('\n');
    expect(await summary(csv, 'fr_fr')).toEqual(expected('T-shirts', 'Taille'));
  });

  test('Spanish: Tipo, Nombre, Precio normal, Categorías, Superior, Nombre / Valor(es) del atributo 1', async () => {
    const csv = [
      'ID,Tipo,SKU,Nombre,Descripción,Precio rebajado,Precio normal,Categorías,Imágenes,Superior,Nombre del atributo 1,Valor(es) del atributo 1,Atributo visible 1',
      '10,variable,TS,T-shirt,Algodón,,,Ropa > Camisetas,,,Talla,"S, M",1',
      '11,variation,TS-S,T-shirt - S,,,"19,90",,,TS,Talla,S,',
      '12,variation,TS-M,T-shirt - M,,,"21,90",,,TS,Talla,M,',
      '13,simple,MUG,Mug,,,"12,50",Maison,,,,,',
    ].join('\n');
    expect(await summary(csv, 'es_es')).toEqual(expected('Camisetas', 'Talla'));
  });

  test('German: Typ, Artikelnummer, Regulärer Preis, Übergeordnetes Produkt, Attribut 1 Wert(e)', async () => {
    const csv = [
      'ID,Typ,Artikelnummer,Name,Angebotspreis,Regulärer Preis,Kategorien,Übergeordnetes Produkt,Attribut 1 Name,Attribut 1 Wert(e)',
      '10,variable,TS,T-shirt,,,Kleidung > Shirts,,Größe,"S, M"',
      '11,variation,TS-S,T-shirt - S,,"19,90",,id:10,Größe,S',
      '12,variation,TS-M,T-shirt - M,,"21,90",,id:10,Größe,M',
      '13,simple,MUG,Mug,,"12,50",Maison,,,',
    ].join('\n');
    expect(await summary(csv, 'de_de')).toEqual(expected('Shirts', 'Größe'));
  });

  test('a Spanish menu with Tipo and Nombre but no WooCommerce price or parent column is not WooCommerce', async () => {
    const { results } = await buildCsv('Tipo,Nombre,Precio\nBebida,Café,"1,50"\n', retail('es_es'));
    expect(results.sources?.[0]?.profile).toBe('generic');
  });
});
