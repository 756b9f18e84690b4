import { DEFAULT_LANGUAGE, type JobType, type Language } from '../schemas/job';
import { peekStream, readAll } from './bytes';
import { readCsv } from './csv';
import { detectFormat, isMachineReadable, type SourceFormat } from './detect';
import {
  type Category,
  FIELD_LIMITS,
  type ItemImage,
  MAX_CATALOG_ITEMS,
  type Modifier,
  type ModifierGroup,
  type Price,
} from './document-fields';
import type { CatalogDocumentV1 as CatalogDocument, ItemV1 as Item } from './document-v1';

const CATALOG_FORMAT_VERSION = 1 as const;

import { CatalogLimitError, CatalogSourceError } from './errors';
import { parseGtin } from './gtin';
import { type EntityKind, makeEntityIds } from './ids';
import { parseJsonSource } from './json-source';
import { defaultCurrency, isCurrencyCode, parsePrice } from './money';
import type { ByteStream, CellValue, RowWarning, SourceRow } from './rows';

/** The parts of a job the builder needs (SPEC 3.1; `language` is absent on retail_image_mapping). */
export interface CatalogJob {
  readonly id: string;
  readonly job_type: JobType;
  readonly job_data: {
    readonly merchant_name: string;
    readonly merchant_address?: string | null;
    readonly merchant_token?: string | null;
    readonly language?: Language;
    readonly client_mappings?: Readonly<Record<string, unknown>>;
  };
}

export interface SourceSummary {
  readonly source: string;
  readonly format: SourceFormat;
  /** Data rows read (for a catalog document: its items). */
  readonly rows: number;
  /** Items this source added to the catalog (rows merged into an existing item are not counted). */
  readonly items: number;
}

export interface CatalogSummary {
  readonly item_count: number;
  readonly category_count: number;
  readonly modifier_group_count: number;
  readonly image_count: number;
}

/** SPEC 5.2: the job's `results` on success. */
export interface CatalogResults {
  readonly catalog: CatalogSummary;
  /** The first 100 warnings. */
  readonly warnings: readonly RowWarning[];
  readonly warning_count: number;
  readonly sources: readonly SourceSummary[];
}

export interface BuiltCatalog {
  readonly document: CatalogDocument;
  /** The first `keptWarnings` warnings (100 by default). */
  readonly warnings: readonly RowWarning[];
  readonly warningCount: number;
  readonly results: CatalogResults;
}

/** A source's summary; `readable: false` for PDF, images, XLSX and unknown formats, which a person has to read (job state `in_review`). */
export type SourceOutcome = SourceSummary & { readonly readable: boolean };

export interface SourceInput {
  /** The source as the job names it (URL or uploaded file id): used in warnings and the summary. */
  readonly source: string;
  readonly body: ByteStream;
  readonly contentType?: string | null;
  /** File name or URL, for its extension. */
  readonly name?: string | null;
}

export interface CatalogBuilderOptions {
  /** SPEC 9 (200,000). */
  readonly maxItems?: number;
  /** How many warnings are kept in full; all are counted. */
  readonly keptWarnings?: number;
}

const RESULTS_WARNINGS = 100;
const SNIFF_BYTES = 4096;
const MENU_REQUIRED = ['category', 'name', 'price'] as const;
const RETAIL_IDENTIFIERS = ['sku', 'gtin', 'upc'] as const;

interface MutableCategory {
  readonly key: string;
  readonly id: string;
  readonly name: string;
  readonly parentId: string | null;
  readonly sort: number;
  /** `Parent > Child`, for client_mappings. */
  readonly path: string;
  externalId: string | null;
}

interface MutableGroup {
  readonly key: string;
  readonly id: string;
  readonly name: string;
  min: number | null;
  max: number | null;
  readonly modifiers: Modifier[];
  readonly modifierKeys: Set<string>;
}

interface MutableItem {
  readonly key: string;
  readonly id: string;
  name: string;
  description: string | null;
  categoryId: string | null;
  sku: string | null;
  gtin: string | null;
  brand: string | null;
  size: string | null;
  unit: string | null;
  price: Price | null;
  tags: string[];
  calories: number | null;
  readonly groups: MutableGroup[];
  images: ItemImage[];
  externalId: string | null;
  /** Created by a modifier row before (or without) the item's own row. */
  placeholder: { readonly source: string; readonly row: number } | null;
}

const lower = (s: string): string => s.normalize('NFC').toLowerCase();

const cellText = (value: CellValue | undefined): string | null => {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value.trim() : String(value);
  return text === '' ? null : text;
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Parses `250`, `250 kcal` or `250cal` into a whole number of calories. */
const parseCalories = (value: CellValue): number | null => {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value < 1e6 ? value : null;
  const match = /^(\d{1,6})(?:\.0+)?\s*(k?cal(?:ories)?)?$/i.exec(String(value).trim());
  return match?.[1] === undefined ? null : Number(match[1]);
};

/**
 * Builds the catalog document of SPEC 5.5 from a job's sources (SPEC 5.2), row by row, with warnings for
 * bad rows instead of failures. Entity ids are UUIDv5 of the job id and each entity's natural key, so the
 * same input always yields the same document:
 * - menu (`new_menu`): categories by name (case-insensitive), items by category + name, modifier groups
 *   by item + group name, modifiers by group + name; modifier groups have `min` 0 and `max` the number of
 *   their modifiers;
 * - retail: items by GTIN-14 (so UPC-12 and GTIN-13/14 merge) or else by SKU, categories by their full
 *   `>` path.
 *
 * Sources are added one after the other; an item already present (same natural key) is not added twice.
 *
 * @example
 * const builder = new CatalogBuilder(job);
 * for (const source of sources) await builder.addSource({ source: url, body, contentType });
 * const { document, results } = builder.build(new Date());
 */
export class CatalogBuilder {
  private readonly idOf: (kind: EntityKind, key: string) => string;
  private readonly mode: 'menu' | 'retail';
  private readonly language: Language;
  private readonly currency: string;
  private readonly maxItems: number;
  private readonly keptWarnings: number;

  private readonly categories = new Map<string, MutableCategory>();
  private readonly siblingCounts = new Map<string | null, number>();
  private readonly items: MutableItem[] = [];
  private readonly itemsByKey = new Map<string, MutableItem>();
  private readonly itemsBySku = new Map<string, MutableItem>();
  private readonly groups: MutableGroup[] = [];
  private readonly warningList: RowWarning[] = [];
  private warningTotal = 0;
  private readonly sourceList: SourceSummary[] = [];

  constructor(
    private readonly job: CatalogJob,
    options: CatalogBuilderOptions = {},
  ) {
    this.idOf = makeEntityIds(job.id);
    this.mode = job.job_type === 'new_menu' ? 'menu' : 'retail';
    this.language = job.job_data.language ?? DEFAULT_LANGUAGE;
    this.currency = defaultCurrency(this.language);
    this.maxItems = options.maxItems ?? MAX_CATALOG_ITEMS;
    this.keptWarnings = options.keptWarnings ?? RESULTS_WARNINGS;
  }

  /** Items so far. */
  get itemCount(): number {
    return this.items.length;
  }

  /** Warnings so far (all of them, including those not kept). */
  get warningCount(): number {
    return this.warningTotal;
  }

  /** Source summaries so far, in the order sources were added. */
  get sources(): readonly SourceSummary[] {
    return this.sourceList;
  }

  /** Records a warning; only the first `keptWarnings` are kept in full. */
  warn(warning: RowWarning): void {
    this.warningTotal += 1;
    if (this.warningList.length < this.keptWarnings) this.warningList.push(warning);
  }

  /** Records a source the worker could not read at all (fetch failed), so that it shows in `results.sources`. */
  recordSource(summary: SourceSummary): void {
    this.sourceList.push(summary);
  }

  /**
   * Reads one source: detects its format (content type, name, magic bytes), parses it if it is
   * machine-readable and adds its rows. PDF, images, XLSX and unknown formats are not read (the stream is
   * closed) and come back with `readable: false`: the job goes to `in_review`.
   *
   * Throws CatalogSourceError (missing columns, invalid JSON or document), CatalogLimitError, or whatever
   * the body stream throws (OutboundError).
   */
  async addSource(input: SourceInput): Promise<SourceOutcome> {
    const peeked = await peekStream(input.body, SNIFF_BYTES);
    const format = detectFormat({
      head: peeked.head,
      contentType: input.contentType,
      name: input.name ?? input.source,
    });
    if (!isMachineReadable(format)) {
      await peeked.close();
      const summary = { source: input.source, format, rows: 0, items: 0 };
      this.sourceList.push(summary);
      return { readable: false, ...summary };
    }
    const summary =
      format === 'csv'
        ? await this.addCsv(input.source, peeked.stream)
        : await this.addJson(input.source, await readAll(peeked.stream));
    return { readable: true, ...summary };
  }

  /**
   * Adds a CSV source (streamed). Throws CatalogSourceError (`missing_columns`) when a required column
   * is absent from the header: menu `category`, `name`, `price`; retail `name` and one of `sku`, `gtin`, `upc`.
   */
  async addCsv(source: string, body: ByteStream): Promise<SourceSummary> {
    const table = await readCsv(body, {
      onProblem: (problem) => this.warn({ source, row: problem.row, column: null, message: problem.message }),
    });
    const columns = new Set(table.columns);
    const missing =
      this.mode === 'menu'
        ? MENU_REQUIRED.filter((c) => !columns.has(c))
        : [
            ...(columns.has('name') ? [] : ['name']),
            ...(RETAIL_IDENTIFIERS.some((c) => columns.has(c)) ? [] : ['one of sku, gtin, upc']),
          ];
    if (missing.length > 0) {
      await table.close();
      throw new CatalogSourceError(
        `${source}: missing required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ` +
          `(the header has: ${table.columns.filter(Boolean).join(', ') || 'nothing'})`,
        'missing_columns',
      );
    }
    return this.addRows(source, 'csv', table.rows);
  }

  /** Adds a JSON source: a SPEC 5.5 document or an array of row objects. */
  async addJson(source: string, bytes: Uint8Array): Promise<SourceSummary> {
    const parsed = parseJsonSource(bytes);
    if (parsed.kind === 'document') return this.addDocument(source, parsed.document);
    return this.addRows(source, 'json', parsed.rows);
  }

  /** Adds rows already split into columns (CSV, JSON rows, or a future XLSX reader). */
  async addRows(
    source: string,
    format: SourceFormat,
    rows: AsyncIterable<SourceRow> | Iterable<SourceRow>,
  ): Promise<SourceSummary> {
    let count = 0;
    const before = this.items.length;
    try {
      for await (const row of rows) {
        count += 1;
        if (this.mode === 'menu') this.addMenuRow(source, row);
        else this.addRetailRow(source, row);
      }
    } finally {
      // Recorded even when the source fails part-way, so the summary shows how far it got.
      this.sourceList.push({ source, format, rows: count, items: this.items.length - before });
    }
    return this.sourceList.at(-1) as SourceSummary;
  }

  /**
   * Adds a catalog document (a JSON source in SPEC 5.5 format, e.g. an earlier job's export). Its entities
   * get this job's ids (from their natural keys); its image_mappings are not carried over.
   */
  addDocument(source: string, document: CatalogDocument): SourceSummary {
    const before = this.items.length;
    try {
      const byId = new Map(document.categories.map((c) => [c.id, c]));
      const pathOf = (category: Category): string[] => {
        const path: string[] = [];
        for (let c: Category | undefined = category; c !== undefined && path.length <= byId.size; ) {
          path.unshift(c.name.trim());
          c = c.parent_id === null ? undefined : byId.get(c.parent_id);
        }
        return path;
      };
      const categoriesById = new Map<string, MutableCategory>();
      for (const category of document.categories) {
        const created = this.ensureCategoryPath(pathOf(category));
        categoriesById.set(category.id, created);
        if (category.external_id !== null) created.externalId = category.external_id;
      }
      const groupsById = new Map<string, ModifierGroup>(document.modifier_groups.map((g) => [g.id, g]));
      document.items.forEach((sourceItem, index) => {
        const category =
          sourceItem.category_id === null ? undefined : categoriesById.get(sourceItem.category_id);
        const gtin = sourceItem.gtin === null ? null : parseGtin(sourceItem.gtin);
        if (gtin !== null && !gtin.ok) {
          this.warn({ source, row: index + 1, column: 'gtin', message: `gtin ${gtin.message}; ignored` });
        }
        const nameKey = `${category?.key ?? ''}/${lower(sourceItem.name.trim())}`;
        const key =
          this.mode === 'menu'
            ? nameKey
            : gtin?.ok
              ? `gtin:${gtin.gtin14}`
              : sourceItem.sku !== null
                ? `sku:${lower(sourceItem.sku)}`
                : `name:${nameKey}`;
        const duplicate =
          this.itemsByKey.get(key) ??
          (this.mode === 'retail' && sourceItem.sku !== null
            ? this.itemsBySku.get(lower(sourceItem.sku))
            : undefined);
        if (duplicate !== undefined) {
          this.warn({
            source,
            row: index + 1,
            column: null,
            message: `duplicate item ${JSON.stringify(sourceItem.name)}; ignored`,
          });
          return;
        }
        const item = this.createItem(key, {
          name: sourceItem.name.trim(),
          description: sourceItem.description,
          categoryId: category?.id ?? null,
          sku: sourceItem.sku,
          gtin: gtin?.ok ? gtin.gtin : null,
          brand: sourceItem.brand,
          size: sourceItem.size,
          unit: sourceItem.unit,
          price: sourceItem.price,
          tags: [...sourceItem.tags],
          calories: sourceItem.calories,
          images: sourceItem.images.map((image) => ({ ...image })),
        });
        item.externalId = sourceItem.external_id;
        for (const groupId of sourceItem.modifier_group_ids) {
          const group = groupsById.get(groupId);
          if (group === undefined) continue;
          const created = this.ensureGroup(item, group.name);
          created.min = group.min;
          created.max = group.max;
          for (const modifier of group.modifiers) this.addModifier(created, modifier.name, modifier.price);
        }
      });
    } finally {
      this.sourceList.push({
        source,
        format: 'json',
        rows: document.items.length,
        items: this.items.length - before,
      });
    }
    return this.sourceList.at(-1) as SourceSummary;
  }

  /**
   * Finishes the catalog: applies client_mappings (`categories` and `items` objects from our name or SKU
   * to the client's id → `external_id`), turns placeholder items into warnings, and returns the document
   * with the SPEC 5.2 results summary.
   */
  build(generatedAt: Date | string): BuiltCatalog {
    this.applyClientMappings();
    for (const item of this.items) {
      if (item.placeholder !== null) {
        this.warn({
          source: item.placeholder.source,
          row: item.placeholder.row,
          column: 'price',
          message: `item ${JSON.stringify(item.name)} has modifiers but no row with its own price; kept without a price`,
        });
        item.placeholder = null;
      }
    }
    const data = this.job.job_data;
    const categories: Category[] = [...this.categories.values()].map((c) => ({
      id: c.id,
      name: c.name,
      parent_id: c.parentId,
      sort: c.sort,
      external_id: c.externalId,
    }));
    const items: Item[] = this.items.map((item) => ({
      id: item.id,
      name: item.name,
      description: item.description,
      category_id: item.categoryId,
      sku: item.sku,
      gtin: item.gtin,
      brand: item.brand,
      size: item.size,
      unit: item.unit,
      price: item.price,
      tags: item.tags,
      calories: item.calories,
      modifier_group_ids: item.groups.map((g) => g.id),
      images: item.images,
      external_id: item.externalId,
    }));
    const modifierGroups: ModifierGroup[] = this.groups.map((g) => ({
      id: g.id,
      name: g.name,
      min: g.min ?? 0,
      max: Math.max(g.max ?? g.modifiers.length, g.min ?? 0),
      modifiers: g.modifiers,
    }));
    const document: CatalogDocument = {
      format_version: CATALOG_FORMAT_VERSION,
      job_id: this.job.id,
      job_type: this.job.job_type,
      generated_at: typeof generatedAt === 'string' ? generatedAt : generatedAt.toISOString(),
      language: this.language,
      currency: this.currency,
      merchant: {
        name: data.merchant_name,
        address: data.merchant_address ?? null,
        token: data.merchant_token ?? null,
      },
      categories,
      items,
      modifier_groups: modifierGroups,
      image_mappings: [],
    };
    const warnings = [...this.warningList];
    return {
      document,
      warnings,
      warningCount: this.warningTotal,
      results: {
        catalog: summariseCatalog(document),
        warnings: warnings.slice(0, RESULTS_WARNINGS),
        warning_count: this.warningTotal,
        sources: [...this.sourceList],
      },
    };
  }

  // ---- rows ----

  private field(source: string, row: SourceRow, column: string, max: number): string | null {
    const text = cellText(row.values.get(column));
    if (text !== null && text.length > max) {
      this.warn({ source, row: row.row, column, message: `is longer than ${max} characters; ignored` });
      return null;
    }
    return text;
  }

  private required(source: string, row: SourceRow, column: string, max: number): string | null {
    const text = cellText(row.values.get(column));
    if (text === null) {
      this.warn({ source, row: row.row, column, message: `${column} is required; row skipped` });
      return null;
    }
    if (text.length > max) {
      this.warn({ source, row: row.row, column, message: `is longer than ${max} characters; row skipped` });
      return null;
    }
    return text;
  }

  private price(source: string, row: SourceRow, column: string, currency: string): Price | null | 'invalid' {
    const value = row.values.get(column);
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
      return null;
    if (typeof value === 'boolean') {
      this.warn({ source, row: row.row, column, message: `${column} is not a price` });
      return 'invalid';
    }
    const parsed = parsePrice(value, currency);
    if (!parsed.ok) {
      this.warn({ source, row: row.row, column, message: `${column} ${parsed.message}` });
      return 'invalid';
    }
    return parsed.price;
  }

  private optionalFields(source: string, row: SourceRow) {
    const description = this.field(source, row, 'description', FIELD_LIMITS.description);
    const size = this.field(source, row, 'size', FIELD_LIMITS.code);
    const tagText = cellText(row.values.get('tags'));
    let tags =
      tagText === null
        ? []
        : [
            ...new Set(
              tagText
                .split('|')
                .map((t) => t.trim())
                .filter(Boolean),
            ),
          ];
    if (tags.some((t) => t.length > FIELD_LIMITS.tag)) {
      this.warn({
        source,
        row: row.row,
        column: 'tags',
        message: `tags longer than ${FIELD_LIMITS.tag} characters ignored`,
      });
      tags = tags.filter((t) => t.length <= FIELD_LIMITS.tag);
    }
    if (tags.length > FIELD_LIMITS.tags) {
      this.warn({
        source,
        row: row.row,
        column: 'tags',
        message: `only the first ${FIELD_LIMITS.tags} tags are kept`,
      });
      tags = tags.slice(0, FIELD_LIMITS.tags);
    }
    const imageUrl = this.field(source, row, 'image_url', FIELD_LIMITS.url);
    const images: ItemImage[] = [];
    if (imageUrl !== null) {
      if (/^https?:\/\//i.test(imageUrl) && URL.canParse(imageUrl))
        images.push({ url: imageUrl, width: null, height: null });
      else
        this.warn({
          source,
          row: row.row,
          column: 'image_url',
          message: 'is not an absolute http(s) URL; ignored',
        });
    }
    return { description, size, tags, images };
  }

  private addMenuRow(source: string, row: SourceRow): void {
    const categoryName = this.required(source, row, 'category', FIELD_LIMITS.name);
    if (categoryName === null) return;
    const name = this.required(source, row, 'name', FIELD_LIMITS.name);
    if (name === null) return;
    let groupName = this.field(source, row, 'modifier_group', FIELD_LIMITS.name);
    let modifierName = this.field(source, row, 'modifier', FIELD_LIMITS.name);
    if ((groupName === null) !== (modifierName === null)) {
      this.warn({
        source,
        row: row.row,
        column: groupName === null ? 'modifier_group' : 'modifier',
        message: 'modifier_group and modifier go together; the modifier is ignored',
      });
      groupName = null;
      modifierName = null;
    }
    const price = this.price(source, row, 'price', this.currency);
    if (price === 'invalid') return;
    const hasModifier = groupName !== null && modifierName !== null;
    if (price === null && !hasModifier) {
      this.warn({ source, row: row.row, column: 'price', message: 'price is required; row skipped' });
      return;
    }
    let modifierPrice: Price | null = null;
    if (hasModifier) {
      const parsed = this.price(source, row, 'modifier_price', this.currency);
      if (parsed === 'invalid') return;
      modifierPrice = parsed;
    }

    const categoryKey = lower(categoryName);
    const key = `${categoryKey}/${lower(name)}`;
    let item = this.itemsByKey.get(key);
    if (item === undefined || item.placeholder !== null || (price !== null && !hasModifier)) {
      if (item !== undefined && item.placeholder === null) {
        this.warn({
          source,
          row: row.row,
          column: 'name',
          message: `duplicate item ${JSON.stringify(name)} in category ${JSON.stringify(categoryName)}; row skipped`,
        });
        return;
      }
      const calories = this.calories(source, row);
      const fields = this.optionalFields(source, row);
      const sku = this.field(source, row, 'sku', FIELD_LIMITS.code);
      if (item === undefined) {
        const category = this.ensureCategoryPath([categoryName]);
        item = this.createItem(key, { name, categoryId: category.id, sku, price, calories, ...fields });
        if (price === null) item.placeholder = { source, row: row.row };
      } else if (price !== null) {
        // The item's own row after modifier rows that named it: fill it in.
        Object.assign(item, { sku, price, calories, ...fields, placeholder: null });
      }
    }
    if (hasModifier && groupName !== null && modifierName !== null) {
      const group = this.ensureGroup(item, groupName);
      if (!this.addModifier(group, modifierName, modifierPrice)) {
        this.warn({
          source,
          row: row.row,
          column: 'modifier',
          message: `duplicate modifier ${JSON.stringify(modifierName)} in group ${JSON.stringify(groupName)}; ignored`,
        });
      }
    }
  }

  private calories(source: string, row: SourceRow): number | null {
    const value = row.values.get('calories');
    if (cellText(value ?? null) === null || value === undefined) return null;
    const calories = parseCalories(value);
    if (calories === null) {
      this.warn({
        source,
        row: row.row,
        column: 'calories',
        message: 'is not a whole number of calories; ignored',
      });
    }
    return calories;
  }

  private addRetailRow(source: string, row: SourceRow): void {
    const name = this.required(source, row, 'name', FIELD_LIMITS.name);
    if (name === null) return;
    const sku = this.field(source, row, 'sku', FIELD_LIMITS.code);
    const gtinValue = row.values.get('gtin');
    const upcValue = row.values.get('upc');
    const parseCode = (column: 'gtin' | 'upc', value: CellValue | undefined) => {
      if (value === undefined || value === null || typeof value === 'boolean') return null;
      if (typeof value === 'string' && value.trim() === '') return null;
      const parsed = parseGtin(value);
      return { column, parsed };
    };
    const codes = [parseCode('gtin', gtinValue), parseCode('upc', upcValue)].filter((c) => c !== null);
    const valid = codes.filter((c) => c.parsed.ok);
    const [first, second] = valid;
    let gtin: { gtin: string; gtin14: string } | null = null;
    if (first?.parsed.ok) gtin = first.parsed;
    for (const code of codes) {
      if (code.parsed.ok) continue;
      const skipped = valid.length === 0 && sku === null;
      this.warn({
        source,
        row: row.row,
        column: code.column,
        message: `${code.column} ${code.parsed.message}${skipped ? '; row skipped (no other identifier)' : '; ignored'}`,
      });
      if (skipped) return;
    }
    if (second?.parsed.ok && first?.parsed.ok && second.parsed.gtin14 !== first.parsed.gtin14) {
      this.warn({ source, row: row.row, column: 'upc', message: 'upc differs from gtin; gtin used' });
    }
    if (gtin === null && sku === null) {
      if (codes.length === 0) {
        this.warn({
          source,
          row: row.row,
          column: 'sku',
          message: 'a sku, gtin or upc is required; row skipped',
        });
      }
      return;
    }
    const key = gtin !== null ? `gtin:${gtin.gtin14}` : `sku:${lower(sku ?? '')}`;
    const duplicate =
      this.itemsByKey.get(key) ?? (sku !== null ? this.itemsBySku.get(lower(sku)) : undefined);
    if (duplicate !== undefined) {
      this.warn({
        source,
        row: row.row,
        column: gtin !== null && this.itemsByKey.has(key) ? 'gtin' : 'sku',
        message: `duplicate product (same ${gtin !== null && this.itemsByKey.has(key) ? 'GTIN' : 'SKU'} as ${JSON.stringify(duplicate.name)}); row skipped`,
      });
      return;
    }

    let currency = this.currency;
    const currencyText = cellText(row.values.get('currency'));
    if (currencyText !== null) {
      if (isCurrencyCode(currencyText.toUpperCase())) currency = currencyText.toUpperCase();
      else {
        this.warn({
          source,
          row: row.row,
          column: 'currency',
          message: `is not an ISO 4217 code; ${this.currency} assumed`,
        });
      }
    }
    const price = this.price(source, row, 'price', currency);
    const categoryText = this.field(source, row, 'category', FIELD_LIMITS.name * 4);
    const path =
      categoryText === null
        ? []
        : categoryText
            .split('>')
            .map((s) => s.trim())
            .filter(Boolean);
    if (path.some((segment) => segment.length > FIELD_LIMITS.name)) {
      this.warn({
        source,
        row: row.row,
        column: 'category',
        message: 'a category name is too long; row skipped',
      });
      return;
    }
    const fields = this.optionalFields(source, row);
    const category = path.length > 0 ? this.ensureCategoryPath(path) : null;
    this.createItem(key, {
      name,
      categoryId: category?.id ?? null,
      sku,
      gtin: gtin?.gtin ?? null,
      brand: this.field(source, row, 'brand', FIELD_LIMITS.name),
      unit: this.field(source, row, 'unit', FIELD_LIMITS.code),
      price: price === 'invalid' ? null : price,
      ...fields,
    });
  }

  // ---- entities ----

  private ensureCategoryPath(path: readonly string[]): MutableCategory {
    let parent = null as MutableCategory | null;
    const keys: string[] = [];
    const names: string[] = [];
    for (const name of path) {
      keys.push(lower(name));
      names.push(name);
      const key = keys.join('>');
      let category: MutableCategory | undefined = this.categories.get(key);
      if (category === undefined) {
        const parentId: string | null = parent?.id ?? null;
        const sort: number = this.siblingCounts.get(parentId) ?? 0;
        this.siblingCounts.set(parentId, sort + 1);
        category = {
          key,
          id: this.idOf('category', key),
          name,
          parentId,
          sort,
          path: names.join(' > '),
          externalId: null,
        };
        this.categories.set(key, category);
      }
      parent = category;
    }
    if (parent === null) throw new TypeError('a category path needs at least one name');
    return parent;
  }

  private createItem(
    key: string,
    fields: Partial<Omit<MutableItem, 'key' | 'id' | 'groups' | 'externalId' | 'placeholder'>> & {
      name: string;
    },
  ): MutableItem {
    if (this.items.length >= this.maxItems) {
      throw new CatalogLimitError(`the catalog has more than ${this.maxItems} items, the limit per catalog`);
    }
    const item: MutableItem = {
      key,
      id: this.idOf('item', key),
      description: null,
      categoryId: null,
      sku: null,
      gtin: null,
      brand: null,
      size: null,
      unit: null,
      price: null,
      tags: [],
      calories: null,
      images: [],
      ...fields,
      groups: [],
      externalId: null,
      placeholder: null,
    };
    this.items.push(item);
    this.itemsByKey.set(key, item);
    if (item.sku !== null && !this.itemsBySku.has(lower(item.sku)))
      this.itemsBySku.set(lower(item.sku), item);
    return item;
  }

  private ensureGroup(item: MutableItem, name: string): MutableGroup {
    const key = `${item.key}/${lower(name)}`;
    let group = item.groups.find((g) => g.key === key);
    if (group === undefined) {
      group = {
        key,
        id: this.idOf('modifier_group', key),
        name,
        min: null,
        max: null,
        modifiers: [],
        modifierKeys: new Set(),
      };
      item.groups.push(group);
      this.groups.push(group);
    }
    return group;
  }

  /** False when the group already has a modifier of that name. */
  private addModifier(group: MutableGroup, name: string, price: Price | null): boolean {
    const key = lower(name);
    if (group.modifierKeys.has(key)) return false;
    group.modifierKeys.add(key);
    group.modifiers.push({ id: this.idOf('modifier', `${group.key}/${key}`), name, price });
    return true;
  }

  private applyClientMappings(): void {
    const mappings = this.job.job_data.client_mappings;
    if (!mappings) return;
    const table = (name: 'categories' | 'items'): Map<string, string> | null => {
      const value = mappings[name];
      if (value === undefined) return null;
      if (!isPlainObject(value)) {
        this.warn({
          source: 'client_mappings',
          row: null,
          column: name,
          message: 'must be an object; ignored',
        });
        return null;
      }
      const result = new Map<string, string>();
      for (const [key, id] of Object.entries(value)) {
        if (
          (typeof id === 'string' && id !== '' && id.length <= FIELD_LIMITS.code) ||
          typeof id === 'number'
        ) {
          result.set(key, String(id));
        } else {
          this.warn({
            source: 'client_mappings',
            row: null,
            column: `${name}.${key}`,
            message: `must be a non-empty string of at most ${FIELD_LIMITS.code} characters; ignored`,
          });
        }
      }
      return result;
    };
    const lookup = (map: Map<string, string>) => {
      const folded = new Map<string, string>();
      for (const [key, value] of map)
        if (!folded.has(lower(key.trim()))) folded.set(lower(key.trim()), value);
      return (...candidates: (string | null)[]): string | undefined => {
        for (const c of candidates) if (c !== null && map.has(c)) return map.get(c);
        for (const c of candidates)
          if (c !== null && folded.has(lower(c.trim()))) return folded.get(lower(c.trim()));
        return undefined;
      };
    };
    const categories = table('categories');
    if (categories) {
      const find = lookup(categories);
      for (const category of this.categories.values()) {
        const id = find(category.path, category.name);
        if (id !== undefined) category.externalId = id;
      }
    }
    const items = table('items');
    if (items) {
      const find = lookup(items);
      for (const item of this.items) {
        const id = find(item.sku, item.gtin, item.name);
        if (id !== undefined) item.externalId = id;
      }
    }
  }
}

/** SPEC 5.2 `results.catalog` for a document. */
export const summariseCatalog = (document: CatalogDocument): CatalogSummary => ({
  item_count: document.items.length,
  category_count: document.categories.length,
  modifier_group_count: document.modifier_groups.length,
  image_count: document.items.reduce((sum, item) => sum + item.images.length, 0),
});
