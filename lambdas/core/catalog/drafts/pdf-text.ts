import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { definePDFJSModule, getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import { misreadFonts, reread } from './pdf-encoding';
import type { TextRun } from './text-runs';

/**
 * A PDF's text layer as text runs (unpdf, which bundles pdf.js and runs without a browser or a native
 * library). Each page's text items become runs in top-left coordinates; bold and italic come from the font
 * names (`Helvetica-Bold`, `…-Italic`), which pdf.js only knows once the page's fonts are loaded.
 */

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

interface PdfTextItem {
  readonly str: string;
  readonly transform: readonly number[];
  readonly width: number;
  readonly height: number;
  readonly fontName: string;
}

// pdf.js 5 copies font data with ArrayBuffer#transferToFixedLength, which Node 20 lacks (Node 22+ has it).
// A copy is what it needs: the original buffer is not used again.
const arrayBufferPrototype = ArrayBuffer.prototype as ArrayBuffer & { transferToFixedLength?: unknown };
if (typeof arrayBufferPrototype.transferToFixedLength !== 'function') {
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', {
    value(this: ArrayBuffer, length?: number) {
      return this.slice(0, length ?? this.byteLength);
    },
    configurable: true,
    writable: true,
  });
}

type NodeRequire = (id: string) => unknown;
type BuiltinModules = {
  getBuiltinModule?: (id: 'module') => {
    createRequire(path: string): NodeRequire & { resolve(id: string): string };
  };
};

/** Node's `require` from the project root (Lambda: the task root), or undefined where the host has none. */
const projectRequire = () =>
  (process as unknown as BuiltinModules)
    .getBuiltinModule?.('module')
    .createRequire(join(process.cwd(), 'package.json'));

let pdfJsLoaded: Promise<void> | undefined;

/**
 * Loads pdf.js (unpdf's serverless build, an ES module) once. Where the host cannot `import()` an ES module
 * from CommonJS (a test runner without VM modules), Node's own `require` loads it: Node 20.19+ and 22.12+
 * require ES modules without a flag. In the Lambda bundle the import is resolved by esbuild.
 */
export const loadPdfJs = (): Promise<void> => {
  pdfJsLoaded ??= definePDFJSModule(async () => {
    try {
      return await import('unpdf/pdfjs');
    } catch (error) {
      const nodeRequire = projectRequire();
      if (!nodeRequire) throw error;
      return nodeRequire(join(dirname(nodeRequire.resolve('unpdf')), 'pdfjs.mjs'));
    }
  });
  return pdfJsLoaded;
};

let dataOptions: PdfJsDataOptions | undefined;

export interface PdfJsDataOptions {
  readonly cMapUrl?: string;
  readonly cMapPacked?: boolean;
  readonly standardFontDataUrl?: string;
}

/**
 * Where pdf.js finds its character maps and the standard fonts' data (issue 23: without them a CID font's
 * text — a poster's dish names and prices — is not read at all, and a page whose fonts name their encoding
 * by a CMap comes out garbled). They are data files of the pdfjs-dist package, installed beside the job
 * worker's bundle in Lambda; pdf.js's Node build wants file paths ending in `/`. Empty when the package is
 * not there (pdf.js then reads what it can without them).
 */
export const pdfJsDataOptions = (): PdfJsDataOptions => {
  if (dataOptions) return dataOptions;
  try {
    const nodeRequire = projectRequire();
    const root = nodeRequire ? dirname(nodeRequire.resolve('pdfjs-dist/package.json')) : undefined;
    dataOptions =
      root && existsSync(join(root, 'cmaps')) && existsSync(join(root, 'standard_fonts'))
        ? {
            cMapUrl: `${join(root, 'cmaps')}/`,
            cMapPacked: true,
            standardFontDataUrl: `${join(root, 'standard_fonts')}/`,
          }
        : {};
  } catch {
    dataOptions = {};
  }
  return dataOptions;
};

export interface PdfTextPage {
  readonly page: number;
  readonly width: number;
  readonly height: number;
  /** The text layer's runs, not yet told bold or italic (their fonts unread). */
  readonly runs: readonly TextRun[];
  /**
   * The runs told bold and italic by their fonts' names, which only loading the page's drawing operators
   * reads: 0.15–0.2 s on a page of outlines, so done only for a page whose text is kept (issue 23).
   */
  styledRuns(): Promise<readonly TextRun[]>;
}

export interface OpenedPdf {
  readonly pageCount: number;
  /** The text layer of one page (1-based); no runs when the page is a scan. */
  readText(page: number): Promise<PdfTextPage>;
  close(): Promise<void>;
}

const isTextItem = <T extends object>(item: T): item is T & PdfTextItem => 'str' in item;

/**
 * The page's text items, with the text of fonts pdf.js decoded with the wrong encoding read again
 * (pdf-encoding.ts). A font found so on an earlier page of the document (`misreadSoFar`, which this adds
 * to) is read again on this one too, where its text alone might not tell (`÷ffnungszeiten`). Such a page's
 * text is asked for once more without pdf.js's Unicode normalisation, which makes a misread `ß` (the
 * ligature `ﬂ`) a plain `fl`; each item is then normalised as pdf.js does. A page without such a font is
 * read once, as pdf.js gives it.
 */
const textItems = async (
  page: PdfPage,
  misreadSoFar: Map<string, ReadonlyMap<string, string>>,
): Promise<PdfTextItem[]> => {
  const items = (await page.getTextContent()).items.filter(isTextItem);
  for (const [font, map] of misreadFonts(items)) misreadSoFar.set(font, map);
  const misread = new Map([...misreadSoFar].filter(([font]) => items.some((i) => i.fontName === font)));
  if (misread.size === 0) return items;
  const raw = (await page.getTextContent({ disableNormalization: true })).items.filter(isTextItem);
  const { normalizeUnicode } = await getResolvedPDFJS();
  // Both readings hold the same items in the same order (one content stream, read twice): else the first one.
  const source = raw.length === items.length ? raw : items;
  return items.map((item, i) => {
    const map = misread.get(item.fontName);
    return map ? { ...item, str: normalizeUnicode(reread(source[i]!.str, map)) as string } : item;
  });
};

/** Fonts by pdf.js's internal id → their PostScript names, once the page's operator list is loaded. */
const fontNames = async (page: PdfPage, ids: readonly string[]): Promise<Map<string, string>> => {
  const names = new Map<string, string>();
  if (ids.length === 0) return names;
  try {
    await page.getOperatorList();
    for (const id of ids) {
      const font = page.commonObjs.has(id) ? (page.commonObjs.get(id) as { name?: string } | null) : null;
      if (font?.name) names.set(id, font.name);
    }
  } catch {
    // Without font names the layout still works from sizes and capitals.
  }
  return names;
};

const toRun = (
  item: PdfTextItem,
  page: number,
  top: number,
  left: number,
  font: string,
): TextRun | undefined => {
  const [a = 0, b = 0, , , e = 0, f = 0] = item.transform;
  const size = Math.hypot(a, b);
  if (item.str.trim() === '' || size <= 0 || item.width <= 0) return undefined;
  // Text is placed on its baseline; ascenders take about 0.8 of the size above it.
  return {
    text: item.str,
    x: e - left,
    y: top - f - size * 0.8,
    width: item.width,
    height: size,
    page,
    fontSize: Math.round(size * 100) / 100,
    bold: /bold|black|heavy|semibold|demi/i.test(font),
    italic: /italic|oblique/i.test(font),
  };
};

/**
 * Opens a PDF for reading its text layer, page by page. Rejects when the bytes are not a PDF pdf.js can
 * open (damaged, encrypted with a password).
 */
export const openPdf = async (bytes: Uint8Array): Promise<OpenedPdf> => {
  await loadPdfJs();
  // pdf.js may take over the buffer it is given: hand it a copy, the caller keeps the original.
  // No code generated from the document (pdf.js compiles some PDF functions with `new Function` otherwise).
  const options = { isEvalSupported: false, verbosity: 0, ...pdfJsDataOptions() } as Parameters<
    typeof getDocumentProxy
  >[1];
  const document = await getDocumentProxy(new Uint8Array(bytes), options);
  // Fonts pdf.js misreads, by its id (one font object a document, whichever page shows it).
  const misreadSoFar = new Map<string, ReadonlyMap<string, string>>();
  return {
    pageCount: document.numPages,
    async readText(pageNumber) {
      const page = await document.getPage(pageNumber);
      const [left = 0, bottom = 0, right = 0, top = 0] = page.view;
      const items = await textItems(page, misreadSoFar);
      const runsWith = (fonts: ReadonlyMap<string, string>): TextRun[] =>
        items.flatMap((item) => toRun(item, pageNumber, top, left, fonts.get(item.fontName) ?? '') ?? []);
      let styled: Promise<TextRun[]> | undefined;
      return {
        page: pageNumber,
        width: right - left,
        height: top - bottom,
        runs: runsWith(new Map()),
        styledRuns() {
          styled ??= fontNames(page, [...new Set(items.map((i) => i.fontName))])
            .then(runsWith)
            .finally(() => page.cleanup());
          return styled;
        },
      };
    },
    close: () => document.loadingTask.destroy(),
  };
};
