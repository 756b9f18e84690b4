import type { Price } from '../../document';
import { adjustedPrice, optionCombinations, signedAmount } from './product-rows';

/**
 * The options of an Ecwid product (`product_option` rows: one row per choice, `product_option_name`,
 * `product_option_type`, `product_option_value`, `product_option_markup`) and what they make of its
 * variants when it has no `product_variation` rows.
 */

/** One choice of an option and its markup (`5`, `-2.50`, `10%`) over the product's price. */
export interface EcwidChoice {
  readonly value: string;
  readonly markup: string | null;
}

export interface EcwidOption {
  readonly name: string;
  /** Ecwid's type: `DROPDOWN`, `RADIOBUTTONS`, `SIZE`, `CHECKBOXES`, `TEXTFIELD`, `TEXTAREA`, `DATE`, `FILES`. */
  readonly type: string | null;
  readonly choices: EcwidChoice[];
}

/**
 * Options whose choice is one of a list (drop-down, radio buttons, size) make a product's forms; check
 * boxes are add-ons, text, date and file options are what a buyer types or uploads: none is a variant.
 */
export const isChoiceOption = (option: EcwidOption): boolean =>
  option.choices.length > 0 &&
  (option.type === null || /^(?:dropdown|radio ?buttons?|size)$/i.test(option.type));

/** Adds a choice row to the product's options (one option per name, choices in order). */
export const addChoice = (
  options: EcwidOption[],
  name: string,
  type: string | null,
  choice: EcwidChoice | null,
): void => {
  let option = options.find((o) => o.name.toLowerCase() === name.toLowerCase());
  if (option === undefined) {
    option = { name, type, choices: [] };
    options.push(option);
  }
  if (choice !== null && !option.choices.some((c) => c.value === choice.value)) option.choices.push(choice);
};

/**
 * The product's price with the markups of the chosen values (`{ Size: 'L' }`); a percentage is of the
 * product's price. A markup that is not an amount is `invalid` (the caller warns) and counts as none.
 */
export const markedUpPrice = (
  base: Price | null,
  options: readonly EcwidOption[],
  chosen: Readonly<Record<string, string>>,
): { price: Price | null; invalid: string[] } => {
  if (base === null) return { price: null, invalid: [] };
  let amount = 0;
  const invalid: string[] = [];
  for (const [name, value] of Object.entries(chosen)) {
    const option = options.find((o) => o.name.toLowerCase() === name.toLowerCase());
    const markup = option?.choices.find((c) => c.value.toLowerCase() === value.toLowerCase())?.markup;
    if (markup === null || markup === undefined) continue;
    const percent = /^([+-]?\d+(?:\.\d+)?)\s*%$/.exec(markup.trim());
    if (percent !== null) {
      amount += Math.round((base.amount * Number(percent[1])) / 100);
      continue;
    }
    const signed = signedAmount(markup, base.currency);
    if (signed.kind === 'amount') amount += signed.amount;
    else if (signed.kind === 'invalid') invalid.push(markup);
  }
  return { price: adjustedPrice(base, amount), invalid };
};

/** Every combination of the choice options' values, first option outermost. */
export const choiceCombinations = (options: readonly EcwidOption[]): Record<string, string>[] =>
  optionCombinations(
    options.filter(isChoiceOption).map((o) => ({ name: o.name, values: o.choices.map((c) => c.value) })),
  );
