import type { Canvas as CanvasElement, Image } from '@napi-rs/canvas';
import type heicDecode from 'heic-decode';
import * as UTIF from 'utif2';
import type { DecodedImage, GrayImage, ImageDecoder, PhotoFormat, QuarterTurns } from '../core/catalog';
import { OcrError, orientationOf } from '../core/catalog';
import { grayOf } from './canvas-gray';

type Canvas = typeof import('@napi-rs/canvas');
type Picture = Image | CanvasElement;
type HeicDecode = typeof heicDecode;

const asModule = <T>(module: T & { default?: T }): T => module.default ?? module;

/**
 * Decodes photographed menus for OCR and draws them the way the OCR reads best (SPEC 5.2 drafts):
 * @napi-rs/canvas (Skia, a prebuilt binary already shipped for scanned PDF pages) decodes JPEG, PNG, WebP,
 * GIF, BMP and AVIF and applies the EXIF orientation of a JPEG itself; HEIC (an iPhone's default) goes
 * through heic-decode (libheif in WebAssembly, which applies the HEIF rotation); TIFF through utif2 (pure
 * JavaScript), its Orientation tag applied here. Scaling, turning and straightening are Skia's, with its
 * high-quality (mipmapped) filter, so that a 50 MP photo scaled to a fifth stays sharp and unaliased.
 * Where the canvas binary or the HEIC decoder cannot load, `decode` answers undefined instead of failing.
 */
export class CanvasImageDecoder implements ImageDecoder {
  private canvas: Promise<Canvas | undefined> | undefined;
  private heic: Promise<HeicDecode | undefined> | undefined;

  async decode(image: Uint8Array, format: PhotoFormat): Promise<DecodedImage | undefined> {
    const canvas = await this.loadCanvas();
    if (!canvas) return undefined;
    if (format === 'heic') {
      const decodeHeic = await this.loadHeic();
      if (!decodeHeic) return undefined;
      const decoded = await decodeHeic({ buffer: image }).catch((error: unknown) => {
        throw new OcrError('the HEIC image could not be decoded', 'unreadable', { cause: error });
      });
      return new CanvasPicture(canvas, fromRgba(canvas, decoded.width, decoded.height, decoded.data));
    }
    if (format === 'tiff') {
      const tiff = decodeTiff(canvas, image);
      return new CanvasPicture(canvas, tiff.picture, tiff.pages);
    }
    try {
      return new CanvasPicture(canvas, await canvas.loadImage(Buffer.from(image)));
    } catch (error) {
      throw new OcrError(`the ${format.toUpperCase()} image could not be decoded`, 'unreadable', {
        cause: error,
      });
    }
  }

  private loadCanvas(): Promise<Canvas | undefined> {
    this.canvas ??= import('@napi-rs/canvas').then(
      (module) => asModule(module as Canvas & { default?: Canvas }),
      () => undefined,
    );
    return this.canvas;
  }

  private loadHeic(): Promise<HeicDecode | undefined> {
    this.heic ??= import('heic-decode').then(
      (module) => asModule(module as unknown as HeicDecode & { default?: HeicDecode }),
      () => undefined,
    );
    return this.heic;
  }
}

const fromRgba = (
  canvas: Canvas,
  width: number,
  height: number,
  rgba: Uint8Array | Uint8ClampedArray,
): CanvasElement => {
  const element = canvas.createCanvas(width, height);
  const context = element.getContext('2d');
  const data = context.createImageData(width, height);
  data.data.set(rgba);
  context.putImageData(data, 0, 0);
  return element;
};

/**
 * The first page of a TIFF (a scanner's, a fax's), shown as its Orientation tag says, and how many pages the
 * file holds (reduced-resolution copies, NewSubfileType 1, are not pages).
 */
const decodeTiff = (canvas: Canvas, image: Uint8Array): { picture: CanvasElement; pages: number } => {
  try {
    const buffer = Buffer.from(image);
    const ifds = UTIF.decode(buffer).filter((ifd) => ((ifd.t254 as number[] | undefined)?.[0] ?? 0) !== 1);
    const [page] = ifds;
    if (!page) throw new Error('no image in the file');
    UTIF.decodeImage(buffer, page);
    const stored = fromRgba(canvas, page.width, page.height, UTIF.toRGBA8(page));
    const tag = page.t274 as number[] | undefined;
    const { quarterTurns, mirrored } = orientationOf(tag?.[0]);
    const picture = quarterTurns === 0 && !mirrored ? stored : turned(canvas, stored, quarterTurns, mirrored);
    return { picture, pages: ifds.length };
  } catch (error) {
    throw new OcrError('the TIFF image could not be decoded', 'unreadable', { cause: error });
  }
};

const turned = (
  canvas: Canvas,
  picture: CanvasElement,
  quarterTurns: QuarterTurns,
  mirrored: boolean,
): CanvasElement => {
  const sideways = quarterTurns % 2 === 1;
  const element = canvas.createCanvas(
    sideways ? picture.height : picture.width,
    sideways ? picture.width : picture.height,
  );
  const context = element.getContext('2d');
  context.translate(element.width / 2, element.height / 2);
  context.rotate((quarterTurns * Math.PI) / 2);
  if (mirrored) context.scale(-1, 1);
  context.drawImage(picture, -picture.width / 2, -picture.height / 2);
  return element;
};

/** A decoded picture, drawn on demand at the size and turn the OCR asks for. */
class CanvasPicture implements DecodedImage {
  readonly width: number;
  readonly height: number;
  private picture: Picture | undefined;

  constructor(
    private readonly canvas: Canvas,
    picture: Picture,
    readonly pages = 1,
  ) {
    this.picture = picture;
    this.width = picture.width;
    this.height = picture.height;
  }

  async render(options: { scale: number; quarterTurns: QuarterTurns; degrees: number }): Promise<GrayImage> {
    const picture = this.picture;
    if (!picture) throw new OcrError('the image was closed', 'unreadable');
    const radians = ((options.quarterTurns * 90 + options.degrees) * Math.PI) / 180;
    const cos = Math.abs(Math.cos(radians));
    const sin = Math.abs(Math.sin(radians));
    const w = this.width * options.scale;
    const h = this.height * options.scale;
    // Rounded first: the page's centre, which the view of the read maps back through, is exactly half of it.
    const width = Math.max(1, Math.round(w * cos + h * sin));
    const height = Math.max(1, Math.round(w * sin + h * cos));
    const element = this.canvas.createCanvas(width, height);
    const context = element.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.translate(width / 2, height / 2);
    context.rotate(radians);
    context.scale(options.scale, options.scale);
    context.drawImage(picture, -this.width / 2, -this.height / 2);
    return grayOf(context.getImageData(0, 0, width, height).data, width, height);
  }

  close(): void {
    this.picture = undefined;
  }
}
