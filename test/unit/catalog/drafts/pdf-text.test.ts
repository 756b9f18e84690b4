import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import { openPdf } from '../../../../lambdas/core/catalog/drafts/pdf-text';

/** A page with a bold heading, a dish in the regular face and an italic note (pdfkit's standard fonts). */
const menu = async (): Promise<Uint8Array> => {
  const doc = new PDFDocument({ size: 'A5', margin: 0 });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  doc.font('Helvetica-Bold').fontSize(16).text('Starters', 40, 40);
  doc.font('Helvetica').fontSize(11).text('Tomato soup 4.50', 40, 80);
  doc.font('Helvetica-Oblique').fontSize(9).text('served warm', 40, 100);
  doc.addPage({ size: 'A5', margin: 0 });
  doc.rect(40, 40, 100, 100).fill('#777777');
  doc.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
};

/**
 * Pages whose first font is a TrueType font marked symbolic, with no /Encoding and no /ToUnicode (DejaVu
 * Sans embedded whole), showing WinAnsi bytes, as some Windows producers write; the second is Helvetica in
 * WinAnsiEncoding. Each page is a list of [font, text] lines, the text's characters written as their
 * Latin-1 bytes.
 */
const symbolicFontPdf = (pages: readonly (readonly (readonly ['F1' | 'F2', string])[])[]): Uint8Array => {
  const fonts = join(dirname(createRequire(__filename).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  const font = readFileSync(join(fonts, 'DejaVuSans.ttf'));
  const packed = deflateSync(font);
  // Objects 1–6: the catalog, the page tree and the fonts; then each page and its content stream.
  const pageObject = (n: number) => 7 + 2 * n;
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from(
      `<< /Type /Pages /Kids [${pages.map((_, n) => `${pageObject(n)} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    ),
    Buffer.from('<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+DejaVuSans /FontDescriptor 4 0 R >>'),
    Buffer.from(
      '<< /Type /FontDescriptor /FontName /ABCDEF+DejaVuSans /Flags 4 /FontBBox [-1021 -463 1793 1232] /ItalicAngle 0 /Ascent 928 /Descent -236 /CapHeight 729 /StemV 80 /FontFile2 5 0 R >>',
    ),
    Buffer.concat([
      Buffer.from(`<< /Length ${packed.length} /Length1 ${font.length} /Filter /FlateDecode >>\nstream\n`),
      packed,
      Buffer.from('\nendstream'),
    ]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'),
    ...pages.flatMap((lines, n) => {
      const content = Buffer.concat(
        lines.map(([f, text], i) =>
          Buffer.concat([
            Buffer.from(`BT /${f} 12 Tf 72 ${720 - 20 * i} Td (`),
            Buffer.from(text, 'latin1'),
            Buffer.from(') Tj ET\n'),
          ]),
        ),
      );
      return [
        Buffer.from(
          `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 6 0 R >> >> /Contents ${pageObject(n) + 1} 0 R >>`,
        ),
        Buffer.concat([
          Buffer.from(`<< /Length ${content.length} >>\nstream\n`),
          content,
          Buffer.from('\nendstream'),
        ]),
      ];
    }),
  ];
  const parts = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objects.forEach((object, i) => {
    const bytes = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), object, Buffer.from('\nendobj\n')]);
    offsets.push(at);
    at += bytes.length;
    parts.push(bytes);
  });
  const table = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${table}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`,
    ),
  );
  return new Uint8Array(Buffer.concat(parts));
};

describe('openPdf (the text layer of a PDF page)', () => {
  it('reads the runs first, and tells bold and italic from their fonts only when asked', async () => {
    const pdf = await openPdf(await menu());
    try {
      const text = await pdf.readText(1);
      expect(text.runs.map((r) => r.text)).toEqual(['Starters', 'Tomato soup 4.50', 'served warm']);
      expect(text.runs.some((r) => r.bold || r.italic)).toBe(false);
      const styled = await text.styledRuns();
      expect(styled.map((r) => [r.text, r.bold, r.italic])).toEqual([
        ['Starters', true, false],
        ['Tomato soup 4.50', false, false],
        ['served warm', false, true],
      ]);
      // Placed as the unstyled runs are.
      expect(styled.map(({ bold, italic, ...r }) => r)).toEqual(text.runs.map(({ bold, italic, ...r }) => r));
      await expect(text.styledRuns()).resolves.toBe(styled);
    } finally {
      await pdf.close();
    }
  });

  it('reads a font pdf.js decodes with the wrong encoding right (a symbolic TrueType font without one)', async () => {
    const pdf = await openPdf(
      symbolicFontPdf([
        [
          ['F1', 'Hühnerfleischspieße 6,90'],
          ['F1', 'Öffnungszeiten'],
          ['F1', 'Gebratene Nudeln 9,50'],
          ['F2', 'Geflügel mit Kräutern'],
        ],
        // Nothing on this page alone tells the font misread (`÷` opens a word): its first page did.
        [['F1', 'Über uns']],
      ]),
    );
    try {
      const text = await pdf.readText(1);
      // pdf.js alone reads the first font as Mac Roman: `H¸hnerfleischspiefle`, `÷ffnungszeiten`.
      expect(text.runs.map((r) => r.text)).toEqual([
        'Hühnerfleischspieße 6,90',
        'Öffnungszeiten',
        'Gebratene Nudeln 9,50',
        'Geflügel mit Kräutern',
      ]);
      expect((await pdf.readText(2)).runs.map((r) => r.text)).toEqual(['Über uns']);
    } finally {
      await pdf.close();
    }
  });

  it('reads no runs from a page without text', async () => {
    const pdf = await openPdf(await menu());
    try {
      const drawn = await pdf.readText(2);
      expect(drawn.runs).toEqual([]);
      await expect(drawn.styledRuns()).resolves.toEqual([]);
    } finally {
      await pdf.close();
    }
  });
});
