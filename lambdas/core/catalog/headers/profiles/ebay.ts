import type { DraftVariant } from '../../draft';
import { isCurrencyCode } from '../../money';
import { rowCells } from '../../rows/row-cells';
import type { DraftSink, RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { normaliseHeader } from '../normalise';
import { addImages, ownColumnsOnly, type ProductRows, productDraft, startProduct } from './product-rows';
import { columnFields, optionsName, type Profile, profileColumns, providedFields } from './profile';

/**
 * eBay's listing files: File Exchange and Seller Hub Reports templates and downloads, whose first header
 * is `*Action(SiteID=US|Country=US|Currency=USD|Version=1193)` (the site's currency in it). A required
 * column is starred (`*Title`, `*StartPrice`); `CustomLabel` is the seller's SKU, `*StartPrice` the
 * price (a fixed-price listing's price, an auction's opening bid), `PicURL` the pictures joined by `|`,
 * `*Description` HTML, `C:Brand` the brand among the item specifics (`C:<name>`), `Product:UPC` /
 * `Product:EAN` / `Product:ISBN` (or bare `UPC`, `EAN`) the barcode, which a listing without one gives as
 * `Does not apply` (and a brand as `Unbranded`). `*Category` and `StoreCategory` are eBay's numeric category ids, not names: the
 * listings stay uncategorised. A listing with variations is its row (the title, `RelationshipDetails`
 * `Color=Red;Blue|Size=S;M` listing the values) followed by one `Relationship` `Variation` row each
 * (`RelationshipDetails` `Color=Red|Size=M`, its own CustomLabel, price and barcode). Other relationship
 * rows (a part's vehicle `Compatibility`) are no variants.
 */

const TABLE = {
  name: ['title'],
  description: ['description'],
  sku: ['customlabel', 'custom label', 'custom label sku'],
  price: ['startprice', 'start price', 'buyitnowprice', 'buy it now price'],
  brand: ['c brand', 'cd brand', 'product brand'],
  gtin: ['product upc', 'product ean', 'product isbn', 'upc', 'ean', 'isbn'],
  image_url: ['picurl', 'pictureurl', 'picture url'],
  relationship: ['relationship'],
  details: ['relationshipdetails', 'relationship details'],
} as const;

type Role = keyof typeof TABLE;

const ACTION = /^action(?: |$)/;
/** What eBay asks for where an identifier does not exist, on its sites' languages. */
const NO_IDENTIFIER =
  /^(?:does not apply|not applicable|n\/?a|none|non applicable|nicht zutreffend|no aplicable|non applicabile)$/i;

/** eBay's own value for an item without a brand. */
const NO_BRAND = /^(?:unbranded|unbranded\/generic|does not apply)$/i;

/** `Color=Red|Size=M` (and `Color=Red;Size=M`) as options; a parent's `Color=Red;Blue|…` gives its names. */
export const relationshipOptions = (text: string): Record<string, string> => {
  const pairs = text.split(/[|;]/).every((p) => p.includes('=')) ? text.split(/[|;]/) : text.split('|');
  const options: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (at > 0 && name !== '' && value !== '') options[name] = value;
  }
  return options;
};

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const map = profileColumns(headers, TABLE, { skip: ownColumnsOnly(TABLE) });
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const [NAME, DESCRIPTION, SKU, PRICE, BRAND, GTIN, IMAGES, RELATIONSHIP, DETAILS] = [
    col('name'),
    col('description'),
    col('sku'),
    col('price'),
    col('brand'),
    col('gtin'),
    col('image_url'),
    col('relationship'),
    col('details'),
  ];
  const columns = columnFields(map);
  const action = headers.findIndex((h) => ACTION.test(normaliseHeader(h)));
  if (action >= 0) columns.set(action, 'action');
  const named = /currency=([a-z]{3})/i.exec(headers[action] ?? '')?.[1]?.toUpperCase();
  const currency = named !== undefined && isCurrencyCode(named) ? named : ctx.currency;
  const nameLabel = NAME[0] === undefined ? 'Title' : cells.label(NAME[0]);
  let current: ProductRows | null = null;
  /** The listing's own row, its variant while no variation row follows. */
  let listingVariant: DraftVariant | null = null;
  let optionNames: string[] = [];

  const gtinOf = (row: TableRow): string | null =>
    cells.gtin(
      row,
      GTIN.filter((i) => !NO_IDENTIFIER.test(String(row.cells[i] ?? '').trim())),
    );

  const variantOf = (row: TableRow, name: string | null, options: Record<string, string>): DraftVariant => {
    const { cell } = cells.priceOf(row, PRICE, currency);
    return { ...singleVariant(cell, { name, sku: cells.text(row, SKU), gtin: gtinOf(row) }), options };
  };

  const flush = (emit: DraftSink) => {
    const product = current;
    if (product !== null && product.variants.length === 0 && listingVariant !== null)
      product.variants.push(listingVariant);
    current = null;
    listingVariant = null;
    const draft = product === null ? null : productDraft(product, ctx);
    if (draft !== null) emit(draft);
  };

  return {
    profile: 'ebay',
    columns,
    provides: providedFields(map),
    row(row, emit) {
      const relationship = (cells.text(row, RELATIONSHIP) ?? '').toLowerCase();
      if (relationship === 'variation') {
        if (current === null) {
          ctx.warn(row.row, nameLabel, 'missing_name', 'a variation row without its listing above; skipped');
          return;
        }
        const given = relationshipOptions(cells.text(row, DETAILS) ?? '');
        // In the listing's order of option names, then any it did not list.
        const options: Record<string, string> = {};
        for (const name of [...optionNames, ...Object.keys(given)]) {
          const value = given[name];
          if (value !== undefined) options[name] = value;
        }
        const variant = variantOf(row, optionsName(options), options);
        if (variant.price === null && variant.pricing === 'fixed' && listingVariant?.price)
          current.variants.push({ ...variant, price: listingVariant.price });
        else current.variants.push(variant);
        return;
      }
      if (relationship !== '') return; // `Compatibility` and other relationship rows: not products
      flush(emit);
      const name = cells.text(row, NAME);
      if (name === null) {
        ctx.warn(row.row, nameLabel, 'missing_name', 'the listing has no title; skipped');
        return;
      }
      const product = startProduct(`row ${row.row}`, row.row);
      product.name = name;
      product.description = cells.description(row, DESCRIPTION);
      const brand = cells.text(row, BRAND);
      product.brand = brand === null || NO_BRAND.test(brand) ? null : brand;
      addImages(product, cells.images(row, IMAGES));
      current = product;
      optionNames = Object.keys(relationshipOptions(cells.text(row, DETAILS) ?? ''));
      listingVariant = variantOf(row, null, {});
    },
    end(emit) {
      flush(emit);
    },
  };
};

export const ebayProfile: Profile = {
  name: 'ebay',
  matches: (headers) =>
    [...headers].some((h) => ACTION.test(h)) &&
    headers.has('title') &&
    (headers.has('startprice') || headers.has('customlabel') || headers.has('relationship')),
  open,
};
