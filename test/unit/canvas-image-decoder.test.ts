import { createCanvas } from '@napi-rs/canvas';
import * as UTIF from 'utif2';
import { CanvasImageDecoder } from '../../lambdas/adapters/canvas-image-decoder';
import type { GrayImage } from '../../lambdas/core/catalog';
import { OcrError } from '../../lambdas/core/catalog/drafts/ports';
import { withExifOrientation } from '../fixtures/drafts/phone-photos';

/**
 * The photo decoder of the job worker (SPEC 5.2 drafts): a picture shows as its EXIF orientation says,
 * whatever way its pixels are stored. Pictures here are 96 × 128 as shown, white with a black square in
 * their top-left corner.
 */

const SHOWN = { width: 96, height: 128 };

/**
 * The shown picture stored turned clockwise by `turns` quarters: what a viewer turns back by its tag (EXIF 6
 * says turn a quarter clockwise, so its pixels are stored three quarters on).
 */
const stored = (turns: number) => {
  const sideways = turns % 2 === 1;
  const canvas = createCanvas(sideways ? SHOWN.height : SHOWN.width, sideways ? SHOWN.width : SHOWN.height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.translate(canvas.width / 2, canvas.height / 2);
  g.rotate((turns * Math.PI) / 2);
  g.fillStyle = '#000000';
  g.fillRect(-SHOWN.width / 2, -SHOWN.height / 2, 32, 32);
  return canvas;
};

/** Mean gray level of a corner square of the image. */
const corner = (image: GrayImage, where: 'top-left' | 'bottom-right'): number => {
  let sum = 0;
  const x0 = where === 'top-left' ? 4 : image.width - 20;
  const y0 = where === 'top-left' ? 4 : image.height - 20;
  for (let y = y0; y < y0 + 16; y++)
    for (let x = x0; x < x0 + 16; x++) sum += image.pixels[y * image.width + x]!;
  return sum / 256;
};

const expectUpright = (image: GrayImage, width = SHOWN.width, height = SHOWN.height) => {
  expect([image.width, image.height]).toEqual([width, height]);
  expect(corner(image, 'top-left')).toBeLessThan(60);
  expect(corner(image, 'bottom-right')).toBeGreaterThan(200);
};

/** 96 × 128, the black square top-left; made with heif-enc -q 90 (libheif-examples) from such a PNG. */
const HEIC = Buffer.from(
  'AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAkZtZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAAAA5waXRtAAAAAAABAAAANGlsb2MAAAAAREAAAgABAAAAAAJqAAEAAAAAAAAAKQACAAAAAAKTAAEAAAAAAAAAGAAAADhpaW5mAAAAAAACAAAAFWluZmUCAAAAAAEAAGh2YzEAAAAAFWluZmUCAAAAAAIAAGh2YzEAAAABhWlwcnAAAAFgaXBjbwAAAHhodmNDAQNwAAAAAAAAAAAAHvAA/P34+AAADwMgAAEAGEABDAH//wNwAAADAJAAAAMAAAMAHroCQCEAAQArQgEBA3AAAAMAkAAAAwAAAwAeoDCAgWW6kkprm4EBAwIAAAMAAgAAAwACECIAAQAHRAHBcrAiQAAAABRpc3BlAAAAAAAAAGAAAACAAAAAEHBpeGkAAAAAAwgICAAAAHNodmNDAQQIAAAAAAAAAAAAHvAA/Pz4+AAADwMgAAEAF0ABDAH//wQIAAADAJ/4AAADAAAeugJAIQABACdCAQEECAAAAwCf+AAAAwAAHsDCAgWW6kkprmwIAAADAAgAAAMACEAiAAEAB0QBwXKwIkAAAAAUaXNwZQAAAAAAAABgAAAAgAAAAA5waXhpAAAAAAEIAAAAJ2F1eEMAAAAAdXJuOm1wZWc6aGV2YzoyMDE1OmF1eGlkOjEAAAAAHWlwbWEAAAAAAAAAAgABA4ECgwACBIQFhocAAAAaaXJlZgAAAAAAAAAOYXV4bAACAAEAAQAAAEltZGF0AAAAJSgBrwY4W4jl7b/wlw1SxK/7/+JntKv+HuPRKUtWey+ahNCYHbAAAAAUKAGuDHB1BeW/8HNSKdm4EnhdzZI=',
  'base64',
);

const decoder = new CanvasImageDecoder();
const render = { scale: 1, quarterTurns: 0, degrees: 0 } as const;

describe('CanvasImageDecoder', () => {
  it.each([
    [6, 3, 'II'],
    [8, 1, 'MM'],
    [3, 2, 'II'],
    [1, 0, 'MM'],
  ] as const)(
    'shows a JPEG with EXIF orientation %i as the camera held it',
    async (orientation, turns, order) => {
      const jpeg = withExifOrientation(await stored(turns).encode('jpeg', 95), orientation, order);
      const decoded = (await decoder.decode(jpeg, 'jpeg'))!;
      expect([decoded.width, decoded.height]).toEqual([SHOWN.width, SHOWN.height]);
      expectUpright(await decoded.render(render));
      decoded.close();
    },
  );

  it('draws the picture scaled and turned as asked', async () => {
    const decoded = (await decoder.decode(await stored(0).encode('png'), 'png'))!;
    const half = await decoded.render({ scale: 0.5, quarterTurns: 0, degrees: 0 });
    expect([half.width, half.height]).toEqual([48, 64]);
    const turned = await decoded.render({ scale: 1, quarterTurns: 2, degrees: 0 });
    expect(corner(turned, 'bottom-right')).toBeLessThan(60);
    expect(corner(turned, 'top-left')).toBeGreaterThan(200);
    const sideways = await decoded.render({ scale: 1, quarterTurns: 1, degrees: 0 });
    expect([sideways.width, sideways.height]).toEqual([128, 96]);
  });

  it('decodes a HEIC photo (an iPhone default)', async () => {
    const decoded = await decoder.decode(HEIC, 'heic');
    expect(decoded).toBeDefined();
    expectUpright(await decoded!.render(render));
  });

  it('shows a TIFF as its Orientation tag says', async () => {
    const picture = stored(3);
    const rgba = picture.getContext('2d').getImageData(0, 0, picture.width, picture.height).data;
    const tiff = Buffer.from(
      UTIF.encodeImage(new Uint8Array(rgba.buffer), picture.width, picture.height, {
        t274: [6],
      } as unknown as UTIF.IFD),
    );
    const decoded = (await decoder.decode(tiff, 'tiff'))!;
    expect(decoded.pages).toBe(1);
    expectUpright(await decoded.render(render));
  });

  it('rejects bytes that are not the image they claim to be as unreadable', async () => {
    for (const format of ['jpeg', 'heic', 'tiff'] as const) {
      const failure = await decoder
        .decode(Buffer.from('not an image at all'), format)
        .catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(OcrError);
      expect((failure as OcrError).reason).toBe('unreadable');
    }
  });
});
