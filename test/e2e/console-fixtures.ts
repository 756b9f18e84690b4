/**
 * Sources for the console's browser tests, made here so that nothing is downloaded: a one-page text PDF
 * menu (PDF 1.4, the standard Helvetica font, a correct cross-reference table) and CSV menus.
 */

const escapePdfText = (text: string): string => text.replace(/[\\()]/g, (c) => `\\${c}`);

/** A PDF page listing `lines` top to bottom; `[text, price]` lines put the price at the right margin. */
export const menuPdf = (title: string, lines: readonly (string | readonly [string, string])[]): Buffer => {
  const ops: string[] = ['BT', '/F1 22 Tf', `72 740 Td (${escapePdfText(title)}) Tj`, 'ET'];
  let y = 700;
  for (const line of lines) {
    if (typeof line === 'string') {
      ops.push('BT', '/F1 16 Tf', `72 ${y} Td (${escapePdfText(line)}) Tj`, 'ET');
    } else {
      ops.push('BT', '/F1 12 Tf', `90 ${y} Td (${escapePdfText(line[0])}) Tj`, 'ET');
      ops.push('BT', '/F1 12 Tf', `480 ${y} Td (${escapePdfText(line[1])}) Tj`, 'ET');
    }
    y -= 24;
  }
  const content = ops.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
};

export const csv = (rows: readonly (readonly string[])[]): Buffer =>
  Buffer.from(
    `${rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(',')).join('\n')}\n`,
  );

/**
 * A restaurant's menu page without structured data (drafted by the service), carrying markup that must
 * never run in the console: scripts, handlers, an iframe, a refresh, styles that would hide the page.
 */
export const hostileMenuPage = (): string => `<!doctype html>
<html><head><meta charset="utf-8"><title>Menu | Quayside</title>
<meta http-equiv="refresh" content="0;url=https://evil.example/">
<style>body { display: none }</style>
<script>alert('head script')</script></head>
<body onload="alert('onload')">
<iframe src="https://evil.example/frame"></iframe>
<main>
  <h1>Our menu</h1>
  <section>
    <h2>Starters</h2>
    <ul>
      <li><span>Clam Chowder</span> <span>$9.50</span><img src="x" onerror="alert('img')"></li>
      <li><span>Crispy Calamari</span> <span>$13</span></li>
      <li><span>House Salad</span> <span>$8</span></li>
    </ul>
  </section>
  <section>
    <h2>Wine</h2>
    <table>
      <tr><th>Wine</th><th>Glass</th><th>Bottle</th></tr>
      <tr><td>Pinot Grigio</td><td>$11</td><td>$40</td></tr>
      <tr><td>Malbec</td><td>$12</td><td>$44</td></tr>
    </table>
  </section>
</main>
<script>document.body.innerHTML = '<h1>defaced</h1>'</script>
</body></html>
`;
