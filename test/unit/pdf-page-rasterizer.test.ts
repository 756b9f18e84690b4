import { createCanvas } from '@napi-rs/canvas';
import PDFDocument from 'pdfkit';
import { PdfPageRasterizer } from '../../lambdas/adapters/pdf-page-rasterizer';
import type { GrayImage } from '../../lambdas/core/catalog';

/**
 * The job worker's PDF page drawer (issue 23): a page drawn in gray levels, at most as many pixels as asked,
 * with what the page paints — vector shapes, text drawn as outlines, and a scan's embedded picture.
 */

/** A US Letter PDF: page 1 a black box at (72, 72) 144 × 72 pt; page 2 a picture filling the page. */
const pdf = async (picture: Buffer): Promise<Uint8Array> => {
  const doc = new PDFDocument({ size: 'LETTER', margin: 0 });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  doc.rect(72, 72, 144, 72).fill('#000000');
  doc.addPage({ size: 'LETTER', margin: 0 });
  doc.image(picture, 0, 0, { width: 612, height: 792 });
  doc.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
};

/** A scan: its left half mid gray (#808080), its right half white. */
const scan = (): Buffer => {
  const canvas = createCanvas(200, 260);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, 200, 260);
  g.fillStyle = '#808080';
  g.fillRect(0, 0, 100, 260);
  return canvas.toBuffer('image/png');
};

/** The gray level at a point given in PDF points from the page's top left. */
const at = (image: GrayImage, x: number, y: number): number => {
  const scale = image.width / 612;
  return image.pixels[Math.floor(y * scale) * image.width + Math.floor(x * scale)]!;
};

describe('PdfPageRasterizer', () => {
  const rasterizer = new PdfPageRasterizer();
  afterAll(() => rasterizer.release());

  it('draws a page in gray levels, as large as asked and no larger, in the page proportions', async () => {
    const bytes = await pdf(scan());
    const page = (await rasterizer.rasterize(bytes, 1, { maxPixels: 1_000_000 }))!;
    expect(page.width * page.height).toBeLessThanOrEqual(1_000_000);
    expect(page.width * page.height).toBeGreaterThan(990_000);
    expect(page.width / page.height).toBeCloseTo(612 / 792, 2);
    expect(page.pixels).toHaveLength(page.width * page.height);
    expect(at(page, 144, 108)).toBeLessThan(10); // in the black box
    expect(at(page, 300, 108)).toBeGreaterThan(245); // beside it: the white page
    expect(at(page, 144, 400)).toBeGreaterThan(245);
  });

  it("draws a scanned page's picture with its gray levels, from the same document", async () => {
    const bytes = await pdf(scan());
    const small = (await rasterizer.rasterize(bytes, 2, { maxPixels: 200_000 }))!;
    expect(small.width * small.height).toBeLessThanOrEqual(200_000);
    expect(Math.abs(at(small, 150, 400) - 128)).toBeLessThanOrEqual(2);
    expect(at(small, 450, 400)).toBeGreaterThan(245);
    // The first page again, from the document already open.
    const first = (await rasterizer.rasterize(bytes, 1, { maxPixels: 200_000 }))!;
    expect(at(first, 144, 108)).toBeLessThan(10);
  });

  it('rejects a page the PDF does not have', async () => {
    await expect(rasterizer.rasterize(await pdf(scan()), 3, { maxPixels: 100_000 })).rejects.toThrow();
  });
});
