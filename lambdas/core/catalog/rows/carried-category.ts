/**
 * Menus: a category cell left empty under a filled one (Excel's merged category cells, which keep the value in
 * the top cell only, or a category typed once per group) names the same category as the row above: the
 * last category read is carried down until a row names another one. (Retail lists keep an empty
 * category as uncategorised: a product list is flat, a menu is read section by section.)
 *
 * @example
 * const carry = carriedCategory();
 * carry(['Burgers']); // ['Burgers']
 * carry(null); // ['Burgers']
 */
export const carriedCategory = (): ((path: readonly string[] | null) => readonly string[] | null) => {
  let last: readonly string[] | null = null;
  return (path) => {
    if (path !== null) last = path;
    return last;
  };
};
