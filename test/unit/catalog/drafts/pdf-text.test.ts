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
