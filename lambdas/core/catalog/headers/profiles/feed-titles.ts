/**
 * Titles and option values of product feed offers (Google Merchant Center, Meta). A feed names each offer
 * of a product after the product and its options (`Tee - Color Black - Size M`, `Camiseta - Talla: M`,
 * `Kleid – Farbe Rot`), in the store's language. The item's name is the offers' common start; when that
 * start ends in an option label (`Tee - Color`) the label belongs to the options, not to the name. Colour
 * swatches written before a colour's name (`#aabbcc:Navy`, `rgb(193,180,123):Cream`) are not part of it.
 */

/**
 * Option labels in the languages stores write feeds in: colour, size, material, pattern, style, flavour
 * and scent, width and length, in English, Spanish, French, German, Italian, Portuguese, Dutch, the
 * Nordic languages, Polish, Czech and Slovak, Hungarian, Romanian, Turkish, Russian, Ukrainian, Greek,
 * Japanese, Chinese and Korean.
 */
const OPTION_LABELS: readonly string[] = [
  // en
  'color',
  'colour',
  'size',
  'material',
  'pattern',
  'style',
  'flavor',
  'flavour',
  'scent',
  'width',
  'length',
  'fit',
  'shade',
  'finish',
  // es
  'talla',
  'tamaño',
  'estampado',
  'estilo',
  'sabor',
  'aroma',
  'diseño',
  'medida',
  // fr
  'couleur',
  'taille',
  'matière',
  'matériau',
  'motif',
  'parfum',
  'saveur',
  'pointure',
  // de
  'farbe',
  'größe',
  'grösse',
  'groesse',
  'muster',
  'stil',
  'geschmack',
  'duft',
  // it
  'colore',
  'taglia',
  'misura',
  'materiale',
  'fantasia',
  'stile',
  'gusto',
  'profumo',
  'formato',
  // pt
  'cor',
  'tamanho',
  'padrão',
  // nl
  'kleur',
  'maat',
  'grootte',
  'materiaal',
  'patroon',
  'stijl',
  'smaak',
  'geur',
  // sv, da, nb, fi
  'färg',
  'storlek',
  'mönster',
  'smak',
  'doft',
  'farve',
  'farge',
  'størrelse',
  'mønster',
  'smag',
  'väri',
  'koko',
  'materiaali',
  'kuvio',
  'tyyli',
  'maku',
  // pl, cs, sk, hu, ro, tr
  'kolor',
  'rozmiar',
  'materiał',
  'wzór',
  'styl',
  'barva',
  'farba',
  'velikost',
  'veľkosť',
  'materiál',
  'vzor',
  'příchuť',
  'szín',
  'méret',
  'anyag',
  'minta',
  'culoare',
  'mărime',
  'mărimea',
  'renk',
  'beden',
  'boyut',
  'desen',
  // ru, uk, el
  'цвет',
  'размер',
  'материал',
  'узор',
  'вкус',
  'колір',
  'розмір',
  'матеріал',
  'смак',
  'χρώμα',
  'μέγεθος',
  'υλικό',
  // ja, zh, ko
  '色',
  'カラー',
  'サイズ',
  '素材',
  '柄',
  '颜色',
  '顏色',
  '尺寸',
  '尺码',
  '尺碼',
  '大小',
  '材质',
  '款式',
  '색상',
  '사이즈',
  '크기',
  '소재',
];

const fold = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

const LABELS: ReadonlySet<string> = new Set(OPTION_LABELS.map(fold));

/** True for an option label of any language a feed is written in (`Color`, `Talla`, `Farbe`, `サイズ`). */
export const isOptionLabel = (text: string, more: Iterable<string> = []): boolean => {
  const folded = fold(text);
  if (LABELS.has(folded)) return true;
  for (const label of more) if (fold(label) === folded) return true;
  return false;
};

/** What separates a title's parts: ` - `, ` – `, `|`, `,`, `/`. */
const LAST_PART = /^(?<name>.*?\S)\s*(?:\s[-–—]\s|[|,/])\s*(?<label>[^-–—|,/:]+?)\s*:?\s*$/su;

/**
 * The item name without the option label its offers' common title ends in: `Tee - Color` → `Tee`,
 * `Kleid – Farbe` → `Kleid`. `labels` are the feed's own option names (Meta's
 * `additional_variant_attribute` `Scent:Fig` makes `Scent` one). Returns the label cut off, or null.
 *
 * @example withoutOptionLabel('Camiseta - Talla') // { name: 'Camiseta', label: 'Talla' }
 */
export const withoutOptionLabel = (
  title: string,
  labels: Iterable<string> = [],
): { name: string; label: string | null } => {
  const groups = LAST_PART.exec(title)?.groups;
  const name = groups?.name?.trim();
  const label = groups?.label?.trim();
  if (name === undefined || label === undefined || name.length < 2 || !isOptionLabel(label, labels))
    return { name: title, label: null };
  return { name, label };
};

/**
 * The options an offer's title gives after the item's name, when every part of it is `Label Value` or
 * `Label: Value` with a known label (`Color Black - Talla M` → `{ Color: 'Black', Talla: 'M' }`); null
 * when a part is anything else.
 */
export const titleOptions = (rest: string, labels: Iterable<string> = []): Record<string, string> | null => {
  const known = [...labels];
  const parts = rest
    .split(/\s[-–—]\s|\s*[|,/]\s*/u)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return null;
  const options: Record<string, string> = {};
  for (const part of parts) {
    const colon = /^(?<label>[^:]{1,30}):\s*(?<value>.+)$/u.exec(part)?.groups;
    if (colon?.label !== undefined && colon.value !== undefined && isOptionLabel(colon.label, known)) {
      options[colon.label.trim()] = colon.value.trim();
      continue;
    }
    const words = part.split(/\s+/);
    const found = [2, 1].find((n) => words.length > n && isOptionLabel(words.slice(0, n).join(' '), known));
    if (found === undefined) return null;
    options[words.slice(0, found).join(' ')] = words.slice(found).join(' ');
  }
  return options;
};

/**
 * An option value without the colour swatch written before it: `#B81616:Red` → `Red`,
 * `rgb(193,180,123):Cream` → `Cream`, `hsla(0, 0%, 75%, 1):Grey` → `Grey`. A value that is only a code
 * is kept as it is.
 */
export const withoutColourCode = (value: string): string => {
  const stripped = value.replace(/^\s*(?:#[0-9a-f]{3,8}|(?:rgba?|hsla?)\([^()]*\))\s*:\s*/i, '').trim();
  return stripped === '' ? value.trim() : stripped;
};
