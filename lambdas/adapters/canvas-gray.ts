import type { GrayImage } from '../core/catalog';

/**
 * A canvas's RGBA pixels (drawn over white: the canvas is opaque) in gray levels: luma (ITU-R BT.601) in
 * integers, what Leptonica would compute from the colour image.
 */
export const grayOf = (rgba: Uint8ClampedArray, width: number, height: number): GrayImage => {
  const pixels = new Uint8Array(width * height);
  for (let i = 0, j = 0; j < pixels.length; i += 4, j++)
    pixels[j] = (rgba[i]! * 77 + rgba[i + 1]! * 150 + rgba[i + 2]! * 29) >> 8;
  return { width, height, pixels };
};
