import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pdfJsDataOptions } from '../../../../lambdas/core/catalog/drafts/pdf-text';

// pdf.js reads a CID font's text only with its character maps, and draws the standard fonts only with their
// data: both come from pdfjs-dist, as file paths ending in `/` (what pdf.js's Node build loads from).
describe('pdfJsDataOptions', () => {
  it("points pdf.js at pdfjs-dist's character maps and standard fonts", () => {
    const options = pdfJsDataOptions();
    expect(options.cMapPacked).toBe(true);
    expect(options.cMapUrl).toMatch(/node_modules\/pdfjs-dist\/cmaps\/$/);
    expect(options.standardFontDataUrl).toMatch(/node_modules\/pdfjs-dist\/standard_fonts\/$/);
    // The maps a Korean, Japanese or Chinese font names, and the fonts' data, are there.
    expect(existsSync(join(options.cMapUrl!, 'Adobe-Korea1-UCS2.bcmap'))).toBe(true);
    expect(existsSync(join(options.cMapUrl!, 'UniJIS-UTF16-H.bcmap'))).toBe(true);
    expect(existsSync(join(options.standardFontDataUrl!, 'LiberationSans-Regular.ttf'))).toBe(true);
  });
});
