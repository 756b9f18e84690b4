import { MAX_XML_ELEMENTS } from '../../../../lambdas/core/catalog/sources/xml-tree';
import { buildFrom } from '../../../fixtures/catalog/build';
import { aCatalogJob } from '../../../fixtures/catalog/jobs';

const retail = aCatalogJob({ job_type: 'new_retail_catalog' });
const menu = aCatalogJob({ job_type: 'new_menu' });

const xmlSource = (body: string | Buffer, name = 'feed.xml', contentType: string | null = null) => ({
  source: name,
  body,
  name,
  contentType,
});

const summary = (built: Awaited<ReturnType<typeof buildFrom>>) =>
  built.document.items.map((item) => [
    built.document.categories.find((c) => c.id === item.category_id)?.name ?? null,
    item.name,
    item.variants.map((v) => [v.name, v.price?.amount ?? null, v.gtin]),
  ]);

const RSS_ONE =
  '<?xml version="1.0" encoding="UTF-8"?>\n<rss xmlns:g="http://base.google.com/ns/1.0" version="2.0"><channel>' +
  '<title>Shop</title><link>https://shop.test</link>' +
  '<item><g:id>A</g:id><g:title>Tee &amp; Cap</g:title><g:price>24.00 USD</g:price><g:gtin>086000555016</g:gtin>' +
  '<g:product_type>Apparel &gt; Tops</g:product_type></item></channel></rss>\n';

describe('XML product feeds', () => {
  test('a feed of one <item> is read (the shop’s own title is not an item or a category)', async () => {
    const built = await buildFrom([xmlSource(RSS_ONE)], retail);
    expect(summary(built)).toEqual([['Tops', 'Tee & Cap', [[null, 2400, '086000555016']]]]);
    expect(built.results.sources?.[0]).toMatchObject({ format: 'xml', encoding: 'utf-8', rows: 1, items: 1 });
  });

  test('a repeated element is a list where lists are meant, else its first value with a warning', async () => {
    const xml =
      '<?xml version="1.0"?><rss xmlns:g="http://base.google.com/ns/1.0"><channel><item><g:id>A</g:id>' +
      '<g:title>Tee</g:title><g:description>Cotton</g:description><g:link>https://shop.test/tee</g:link>' +
      '<g:availability>in_stock</g:availability><g:price>24.00 USD</g:price><g:price>19.00 USD</g:price>' +
      '<g:product_type>Apparel &gt; Tops</g:product_type><g:product_type>Apparel &gt; Tops</g:product_type>' +
      '<g:image_link>https://img.test/a.jpg</g:image_link><g:additional_image_link>https://img.test/b.jpg</g:additional_image_link>' +
      '<g:additional_image_link>https://img.test/c.jpg</g:additional_image_link></item></channel></rss>';
    const built = await buildFrom([xmlSource(xml)], retail);
    expect(summary(built)).toEqual([['Tops', 'Tee', [[null, 2400, null]]]]);
    expect(built.document.items[0]?.images.map((i) => i.url)).toEqual([
      'https://img.test/a.jpg',
      'https://img.test/b.jpg',
      'https://img.test/c.jpg',
    ]);
    expect(built.results.warnings).toEqual([
      expect.objectContaining({
        row: 1,
        column: 'price',
        code: 'invalid_value',
        message: 'the record has 2 <price> elements; the first ("24.00 USD") was read, not "19.00 USD"',
      }),
    ]);
  });

  test("an Atom entry's own <id> and <title> give way to the feed's g: attributes", async () => {
    const xml =
      '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:g="http://base.google.com/ns/1.0"><entry>' +
      '<id>tag:shop.test,2026:products/1</id><title>Tee (entry)</title><g:id>TEE-1</g:id>' +
      '<g:title>Tee</g:title><g:price>24.00 USD</g:price></entry><entry><id>tag:shop.test,2026:products/2</id>' +
      '<title>Cap</title><g:price>19.00 USD</g:price></entry></feed>';
    const built = await buildFrom([xmlSource(xml)], retail);
    expect(built.document.items.map((i) => [i.name, i.variants[0]?.price?.amount])).toEqual([
      ['Tee', 2400],
      ['Cap', 1900],
    ]);
  });

  test('by its content type or its first characters, whatever its file name', async () => {
    const byType = await buildFrom([xmlSource(RSS_ONE, 'feed', 'application/rss+xml')], retail);
    const bySniff = await buildFrom([xmlSource(`\ufeff${RSS_ONE}`, 'feed.txt')], retail);
    for (const built of [byType, bySniff]) {
      expect(built.results.sources?.[0]).toMatchObject({ format: 'xml', items: 1 });
    }
  });

  test('records inside named category elements get the category path; a record’s own category wins', async () => {
    const xml = `<?xml version="1.0"?>
      <menu name="Dinner">
        <category name="Pizza">
          <category><name>Red</name>
            <item><name>Margherita</name><price>9.50</price></item>
            <item><name>Marinara</name><price>8</price></item>
          </category>
        </category>
        <category name="Drinks">
          <item><name>Cola</name><price>2.50</price><section>Soft drinks</section></item>
        </category>
      </menu>`;
    const built = await buildFrom([xmlSource(xml, 'menu.xml')], menu);
    expect(summary(built)).toEqual([
      ['Red', 'Margherita', [[null, 950, null]]],
      ['Red', 'Marinara', [[null, 800, null]]],
      ['Soft drinks', 'Cola', [[null, 250, null]]],
    ]);
    const paths = built.document.categories.map((c) => c.name);
    expect(paths).toEqual(expect.arrayContaining(['Pizza', 'Red', 'Soft drinks']));
    expect(paths).not.toContain('Dinner');
  });

  test('any repeated element with fields is a record when no known record name is used', async () => {
    const xml =
      '<Export><Artikel><Bezeichnung>Brot</Bezeichnung><Preis>3,20</Preis></Artikel>' +
      '<Artikel><Bezeichnung>Semmel</Bezeichnung><Preis>0,45</Preis></Artikel></Export>';
    const built = await buildFrom(
      [xmlSource(xml, 'export.xml')],
      aCatalogJob({ job_type: 'new_menu', job_data: { language: 'de_de' } }),
    );
    expect(summary(built)).toEqual([
      [null, 'Brot', [[null, 320, null]]],
      [null, 'Semmel', [[null, 45, null]]],
    ]);
  });

  test('Windows-1252 bytes under an ISO-8859-1 declaration read as the characters they are', async () => {
    const xml = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><products><product><name>Cr'),
      Buffer.from([0xe8]),
      Buffer.from('me br'),
      Buffer.from([0xfb]),
      Buffer.from('l'),
      Buffer.from([0xe9]),
      Buffer.from('e</name><price>6.50</price></product></products>'),
    ]);
    const built = await buildFrom([xmlSource(xml, 'menu.xml')], menu);
    expect(built.document.items.map((i) => i.name)).toEqual(['Crème brûlée']);
    expect(built.results.sources?.[0]).toMatchObject({ format: 'xml', encoding: 'windows-1252' });
  });
});

describe('Excel 2003 XML spreadsheets (SpreadsheetML)', () => {
  const cell = (value: string | number, attributes = '') =>
    `<Cell${attributes}><Data ss:Type="${typeof value === 'number' ? 'Number' : 'String'}">${value}</Data></Cell>`;
  const row = (...cells: string[]) => `<Row>${cells.join('')}</Row>`;
  const workbook = (...sheets: string[]) =>
    '<?xml version="1.0"?>\n<?mso-application progid="Excel.Sheet"?>\n' +
    '<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">' +
    '<Styles><Style ss:ID="Default"/></Styles>' +
    sheets.join('') +
    '</Workbook>';
  const sheet = (name: string, rows: string[]) =>
    `<Worksheet ss:Name="${name}"><Table>${rows.join('')}</Table></Worksheet>`;

  test('every worksheet is a table: title rows, merged cells and ss:Index gaps keep rows and columns where Excel shows them', async () => {
    const xml = workbook(
      sheet('Items', [
        row(cell('Price list 2026', ' ss:MergeAcross="3"')),
        `<Row ss:Index="3">${cell('Item')}${cell('Category')}${cell('Barcode')}${cell('Price')}</Row>`,
        row(cell('Espresso beans 1 kg'), cell('Coffee'), cell('036000291452'), cell(18.5)),
        row(cell('Paper filters'), cell('036000291469', ' ss:Index="3"'), cell(4)),
        row(cell('Mug'), cell('Merch'), cell('not a code'), cell(9)),
      ]),
      sheet('Notes', [row(cell('Prices include VAT'))]),
    );
    const built = await buildFrom([xmlSource(xml, 'items.xls', 'application/vnd.ms-excel')], retail);
    expect(summary(built)).toEqual([
      ['Coffee', 'Espresso beans 1 kg', [[null, 1850, '036000291452']]],
      [null, 'Paper filters', [[null, 400, '036000291469']]],
      ['Merch', 'Mug', [[null, 900, null]]],
    ]);
    const source = built.results.sources?.[0];
    expect(source).toMatchObject({ format: 'xml', items: 3 });
    expect(built.results.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sheet: 'Items', row: 6, column: 'Barcode', code: 'invalid_gtin' }),
      ]),
    );
  });
});

describe('SpreadsheetML rows are as wide as Excel allows, whatever the cells say', () => {
  test('ss:MergeAcross and ss:Index past 16,384 columns cost nothing and read the cells before them', async () => {
    const huge = '<Cell ss:MergeAcross="16000"><Data ss:Type="String">x</Data></Cell>'.repeat(2000);
    const xml =
      '<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" ' +
      'xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet"><Worksheet ss:Name="S"><Table>' +
      '<Row><Cell><Data ss:Type="String">Item</Data></Cell><Cell><Data ss:Type="String">Price</Data></Cell></Row>' +
      `<Row><Cell><Data ss:Type="String">Soup</Data></Cell><Cell><Data ss:Type="Number">5</Data></Cell>${huge}</Row>` +
      '<Row><Cell ss:Index="99999999"><Data ss:Type="String">far</Data></Cell></Row>' +
      '</Table></Worksheet></Workbook>';
    const built = await buildFrom([xmlSource(xml, 'wide.xml')], menu);
    expect(built.document.items.map((i) => [i.name, i.variants[0]?.price?.amount])).toEqual([['Soup', 500]]);
  });
});

describe('XML that cannot be read fails its source clearly, and never hangs or loads anything', () => {
  const failure = async (xml: string) => {
    const built = await buildFrom([xmlSource(xml)], retail);
    expect(built.document.items).toEqual([]);
    expect(built.failures).toHaveLength(1);
    expect(built.failures[0]).toMatchObject({ source: 'feed.xml', code: 'source_unreadable' });
    return built.failures[0]!.message;
  };

  test('a feed cut short says so, and a broken one names the line where it broke', async () => {
    const cut = RSS_ONE.replace('</item></channel></rss>\n', '</item><item><g:id>B</g:id><g:title>Ca');
    expect(await failure(cut)).toBe(
      'the XML source ends before <g:title> in <item> in <channel> in … is closed: it was cut short',
    );
    const broken = RSS_ONE.replace('<g:title>Tee &amp; Cap</g:title>', '\n<g:title>Tee &amp; Cap</title>');
    expect(await failure(broken)).toMatch(/^the XML source is not well-formed \(line 3: .*g:title.*\)/);
  });

  test('entity declarations (billion laughs, external files) are refused, not expanded', async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;">' +
      '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><products><product><name>&lol3;</name></product></products>';
    expect(await failure(laughs)).toMatch(/declares entities/);
    const external =
      '<?xml version="1.0"?><!DOCTYPE p [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]><products><product><name>&x;</name><price>1</price></product></products>';
    expect(await failure(external)).toMatch(/declares entities/);
  });

  test('deep nesting is an error, not a stack overflow', async () => {
    const deep = `<a>${'<b>'.repeat(50_000)}x${'</b>'.repeat(50_000)}</a>`;
    expect(await failure(deep)).toMatch(/XML/);
  });

  test('more elements than a worker can hold as a tree is too large, refused before parsing', async () => {
    const wide = `<?xml version="1.0"?><products>${'<product><n>x</n></product>'.repeat(MAX_XML_ELEMENTS / 2 + 1)}</products>`;
    const built = await buildFrom([xmlSource(wide)], retail);
    expect(built.failures).toEqual([
      expect.objectContaining({
        code: 'source_too_large',
        message: expect.stringMatching(/more than 3,000,000 elements/),
      }),
    ]);
  });

  test('a document with no repeated records says what it looked for', async () => {
    expect(await failure('<?xml version="1.0"?><config><setting>on</setting></config>')).toMatch(
      /no repeated product elements/,
    );
  });

  test('XHTML is a web page, not a feed', async () => {
    const page =
      '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Menu</title></head><body><p>Soup 5.00</p></body></html>';
    const built = await buildFrom([xmlSource(page, 'menu.xhtml')], menu);
    expect(built.results.sources?.[0]).toMatchObject({ format: 'html' });
  });
});
