import { sniffPhotoFormat } from '../../../../lambdas/core/catalog/sources/signatures';

/** An ISO-BMFF file head: an `ftyp` box with a major brand and compatible brands. */
const ftyp = (major: string, ...compatible: string[]): Uint8Array => {
  const size = 16 + compatible.length * 4;
  const box = Buffer.alloc(size + 8);
  box.writeUInt32BE(size, 0);
  box.write(`ftyp${major}`, 4, 'latin1');
  for (const [i, brand] of compatible.entries()) box.write(brand, 16 + i * 4, 'latin1');
  box.write('meta', size + 4, 'latin1');
  return box;
};

describe('sniffPhotoFormat', () => {
  it('tells the common formats, BMP and both byte orders of TIFF by their magic bytes', () => {
    expect(sniffPhotoFormat(Uint8Array.from([0xff, 0xd8, 0xff, 0xe1]))).toBe('jpeg');
    expect(sniffPhotoFormat(Buffer.from('BM\x36\x00', 'latin1'))).toBe('bmp');
    expect(sniffPhotoFormat(Uint8Array.from([0x49, 0x49, 0x2a, 0x00, 8]))).toBe('tiff');
    expect(sniffPhotoFormat(Uint8Array.from([0x4d, 0x4d, 0x00, 0x2a, 0]))).toBe('tiff');
  });

  it('tells an iPhone HEIC from an AVIF by the brands of its ftyp box, wherever the brand is listed', () => {
    expect(sniffPhotoFormat(ftyp('heic', 'mif1', 'heic'))).toBe('heic');
    expect(sniffPhotoFormat(ftyp('mif1', 'miaf', 'heic'))).toBe('heic');
    expect(sniffPhotoFormat(ftyp('avif', 'mif1', 'miaf'))).toBe('avif');
    expect(sniffPhotoFormat(ftyp('mif1', 'avif'))).toBe('avif');
    expect(sniffPhotoFormat(ftyp('mif1'))).toBe('heic');
  });

  it('is null for a video, an icon and text', () => {
    expect(sniffPhotoFormat(ftyp('isom', 'iso2', 'mp41'))).toBeNull();
    expect(sniffPhotoFormat(Uint8Array.from([0, 0, 1, 0, 1, 0]))).toBeNull();
    expect(sniffPhotoFormat(Buffer.from('name,price\n'))).toBeNull();
    expect(sniffPhotoFormat(new Uint8Array(0))).toBeNull();
  });
});
