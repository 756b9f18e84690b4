import { normaliseHeader } from './normalise';

/**
 * The fields a catalog source's columns can map to, and the header names (aliases) each is known by
 * (SPEC 5.2), in order of preference: when two columns map to one field, the one with the earlier alias is
 * read and the other is its fallback for rows where it is empty.
 */
export const FIELDS = [
  'name',
  'description',
  'category',
  'subcategory',
  'price',
  'currency',
  'sku',
  'gtin',
  'brand',
  'size',
  'unit',
  'variant',
  'calories',
  'tags',
  'image_url',
  'modifier_group',
  'modifier',
  'modifier_price',
] as const;

export type Field = (typeof FIELDS)[number];

// biome-ignore format: the alias lists read best packed
const ALIASES: Readonly<Record<Field, readonly string[]>> = {
  name: [
    'name', 'item name', 'item', 'dish', 'dish name', 'title', 'product name', 'product', 'product title',
    'menu item', 'menu item name', 'item title', 'article', 'article name', 'food', 'drink', 'beverage',
    'wine', 'wines', 'beer', 'beers', 'cocktail', 'cocktails', 'spirit', 'spirits', 'dishes', 'items',
    'products', 'nom', 'nom du plat', 'plat', 'produit', 'désignation', 'designation', 'libellé', 'libelle',
    'nombre', 'plato', 'producto', 'artículo', 'articulo', 'nome', 'piatto', 'prodotto', 'articolo', 'prato',
    'produto', 'artikel', 'bezeichnung', 'artikelbezeichnung', 'gericht', 'speise', 'produkt', 'naam',
    'gerecht', 'vino', 'vin', 'wein', '品名', '商品名', '名前', 'メニュー', 'メニュー名', '料理名', '料理', '메뉴', '메뉴명', '상품명',
    '名称', '菜名', '品名称',
    // Stores that write headers in their own alphabet: Cyrillic, Greek.
    'название', 'наименование', 'товар', 'назва', 'найменування', 'naziv', 'назив', 'όνομα', 'ονομα', 'ονομασία', 'προϊόν',
  ],
  description: [
    'description', 'item description', 'product description', 'dish description', 'body', 'body html',
    'long description', 'details', 'desc', 'short description', 'summary', 'ingredients', 'beschreibung',
    'descripción', 'descripcion', 'descrizione', 'descrição', 'descricao', 'omschrijving', 'beschrijving',
    'détails', '説明', '内容', '설명', '描述', '说明', 'описание', 'опис', 'opis', 'περιγραφή', 'περιγραφη',
  ],
  category: [
    'category', 'categories', 'category name', 'section', 'menu section', 'menu category', 'department',
    'product category', 'product type', 'group', 'item category', 'course', 'collection', 'category path',
    'reporting category', 'dept', 'dept name', 'department name', 'catégorie', 'categorie', 'rubrique', 'famille', 'categoría', 'categoria', 'sección',
    'seccion', 'sezione', 'portata', 'kategorie', 'warengruppe', 'rubrik', 'gruppe', 'categorieën', 'groep',
    'カテゴリ', 'カテゴリー', '分類', '部門', '카테고리', '분류', '分类', '類別', '类别', 'категория',
    'категорія', 'kategorija', 'κατηγορία', 'κατηγορια',
  ],
  subcategory: [
    'subcategory', 'sub category', 'subcategory 1', 'sub category 1', 'subcategory 2', 'sub category 2',
    'subcategory 3', 'sub category 3', 'subcategory 4', 'sub category 4', 'sub department',
    'sous catégorie', 'sous categorie', 'subcategoría', 'subcategoria', 'unterkategorie', 'sottocategoria',
    'subcategorie', 'サブカテゴリ', '小分類',
  ],
  price: [
    'price', 'regular price', 'variant price', 'amount', 'unit price', 'retail price', 'sell price',
    'selling price', 'sales price', 'list price', 'menu price', 'item price', 'price each', 'prix', 'prix ttc',
    'tarif', 'precio', 'importe', 'цена', 'ціна', 'cena', 'cijena', 'τιμή', 'τιμη', 'prezzo', 'preço', 'preco', 'valor', 'preis', 'verkaufspreis', 'vk preis',
    'vk', 'prijs', 'verkoopprijs', '価格', '値段', '税込価格', '販売価格', '金額', '가격', '판매가', '价格', '價格', '售价',
    // PrestaShop: the import's `Price tax included`, the product list's `Final price` (tax included, after
    // price rules) before its `Base price` (tax excluded). A shelf price includes tax where a tax is
    // included in prices at all (`prix TTC`, `税込価格`); a tax-excluded price is read only without one.
    'price tax included', 'price tax incl', 'price incl tax', 'final price', 'price tax excluded',
    'price tax excl', 'base price',
    // eBay's Seller Hub listing reports: `Current price` (a fixed price, an auction's current bid), `Start price`.
    'current price', 'start price',
  ],
  currency: [
    'currency', 'currency code', 'devise', 'moneda', 'währung', 'valuta', 'moeda', '通貨',
  ],
  sku: [
    // eBay's `Custom label (SKU)` is the seller's SKU where its `Item number` is the listing's number.
    'sku', 'variant sku', 'custom label', 'custom label sku', 'item number', 'item no', 'item code',
    'product code', 'article number', 'plu',
    'plu code', 'product sku', 'code', 'reference', 'ref', 'artikelnummer', 'art nr', 'artikel nr',
    'référence', 'código', 'codigo', 'codice', 'artikelcode', '商品コード', '品番', 'custom sku',
    'manufacturer sku', 'manufact sku', 'sku number', 'item sku', 'seller sku', 'merchant sku',
    // Odoo's name for a product's SKU.
    'internal reference',
  ],
  gtin: [
    'gtin', 'barcode', 'upc', 'ean', 'ean13', 'variant barcode', 'gtin 13', 'gtin 14', 'gtin 12', 'gtin 8', 'ean 13',
    'upc a', 'upc code', 'ean code', 'jan', 'jan code', 'isbn', 'gtin upc ean or isbn', 'bar code',
    'código de barras', 'codice a barre', 'strichcode', 'streepjescode', 'バーコード', 'janコード',
    'product upc', 'product ean', 'p upc', 'p ean',
  ],
  brand: [
    'brand', 'vendor', 'manufacturer', 'brand name', 'make', 'marque', 'fabricant', 'marca', 'fabricante',
    'produttore', 'marke', 'hersteller', 'merk', 'fabrikant', 'ブランド', 'メーカー', '브랜드', '品牌',
  ],
  size: [
    'size', 'sizes', 'portion', 'portions', 'portion size', 'net content', 'pack size', 'pack', 'volume', 'taille', 'tamaño', 'tamanho',
    'formato', 'größe', 'grösse', 'inhalt', 'maat', 'サイズ', '사이즈', '规格',
  ],
  unit: [
    'unit', 'uom', 'unit of measure', 'measure', 'unité', 'unidad', 'einheit', 'eenheid', '単位',
  ],
  variant: [
    'variant', 'variants', 'variation', 'variations', 'variant name', 'variation name', 'option', 'option value', 'variante',
  ],
  calories: [
    'calories', 'calorie', 'kcal', 'cal', 'energy', 'energy kcal', 'calorías', 'kalorien', 'カロリー', '칼로리',
  ],
  tags: [
    'tags', 'tag', 'labels', 'dietary', 'dietary tags', 'allergens', 'keywords', 'étiquettes', 'etiquetas',
  ],
  image_url: [
    'image url', 'image', 'images', 'image src', 'photo', 'photo url', 'picture', 'picture url', 'image link',
    'img', 'img url', 'thumbnail', 'main image', 'product image', 'image 1', 'image1', 'product image url',
    'photo 1', 'image urls', 'imagen', 'foto', 'bild', 'bild url', '画像', '画像url',
  ],
  modifier_group: [
    'modifier group', 'modifier set', 'option group', 'modifier group name', 'add on group', 'extras group',
  ],
  modifier: [
    'modifier', 'modifier name', 'add on', 'addon', 'extra', 'topping',
  ],
  modifier_price: [
    'modifier price', 'add on price', 'addon price', 'extra price', 'topping price',
  ],
};

/** Normalised header → [field, preference rank]. */
const BY_HEADER: ReadonlyMap<string, readonly [Field, number]> = (() => {
  const map = new Map<string, readonly [Field, number]>();
  for (const field of FIELDS) {
    ALIASES[field].forEach((alias, rank) => {
      const key = normaliseHeader(alias);
      if (!map.has(key)) map.set(key, [field, rank]);
    });
  }
  return map;
})();

/** The field a (normalised) header names, with its preference rank (0 is best), or undefined. */
export const fieldOf = (normalisedHeader: string): readonly [Field, number] | undefined =>
  BY_HEADER.get(normalisedHeader);
