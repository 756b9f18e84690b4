import { signedAmount } from './product-rows';

/** The cells of BigCommerce's export that have a syntax of their own (bigcommerce.ts). */

/** `[S]Size=10 in`, `[RB]Color= Black`, `Size=M`: one option of a legacy SKU or Rule row's name. */
const LEGACY_OPTION = /^\s*(?:\[[A-Za-z]{1,4}\])?\s*([^=[\],]+?)\s*=\s*(.*?)\s*$/;

/** A legacy name's options: `[S]Color=Black,[RB]Size=M`; null when the text is not a list of options. */
export const legacyOptions = (text: string): Record<string, string> | null => {
  const options: Record<string, string> = {};
  for (const part of text.split(/,(?=\s*(?:\[[A-Za-z]{1,4}\])?[^=,]+=)/)) {
    const match = LEGACY_OPTION.exec(part);
    if (match === null || match[2] === '') return null;
    options[match[1] as string] = match[2] as string;
  }
  return Object.keys(options).length === 0 ? null : options;
};

/** A modern Options cell: `Type=Rectangle|Name=Size|Value=Small` per option (a swatch's `[#hex]` dropped). */
export const modernOptions = (text: string): Record<string, string> => {
  const options: Record<string, string> = {};
  for (const segment of text.split(/(?=Type=)/)) {
    const fields = new Map<string, string>();
    for (const pair of segment.split('|')) {
      const at = pair.indexOf('=');
      if (at > 0) fields.set(pair.slice(0, at).trim().toLowerCase(), pair.slice(at + 1).trim());
    }
    const name = fields.get('name');
    const value = fields
      .get('value')
      ?.replace(/[;|\s]+$/, '')
      .replace(/\s*\[#?[0-9a-f#,\s]*\]$/i, '');
    if (name && value) options[name] = value;
  }
  return options;
};

/** A Rule row's price change: `fixed` sets the price, `add` changes it (negative: a reduction). */
export type Adjustment = { readonly kind: 'fixed' | 'add'; readonly amount: number };

/**
 * The price of a Rule row: `[FIXED]54.0000`, `[ADD]5`, `[REMOVE]2.5` (or `[SUBTRACT]`), or a plain price
 * (fixed); null when it is none of these.
 *
 * @example ruleAdjustment('[REMOVE]2.50', 'USD') // { kind: 'add', amount: -250 }
 */
export const ruleAdjustment = (text: string, currency: string): Adjustment | null => {
  const match = /^\[\s*([a-z]+)\s*\]\s*(.*)$/i.exec(text.trim());
  const kind = match === null ? 'fixed' : (match[1] as string).toLowerCase();
  const amount = signedAmount(match === null ? text : match[2], currency);
  if (amount.kind !== 'amount') return null;
  if (kind === 'fixed') return { kind: 'fixed', amount: amount.amount };
  if (kind === 'add') return { kind: 'add', amount: amount.amount };
  if (kind === 'remove' || kind === 'subtract') return { kind: 'add', amount: -amount.amount };
  return null;
};
