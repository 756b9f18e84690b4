import { readDraftSource } from './draft-source';
import { isOtherImage, sniffImageFormat } from './signatures';
import type { SourceReader } from './types';

/**
 * Photographed menus: JPEG, PNG and WebP are read by OCR and drafted into dishes for review (SPEC 5.2);
 * other images (GIF, HEIC, TIFF, …) are recognised and left to the operations team with a warning.
 */
export const imageReader: SourceReader = {
  format: 'image',
  textual: false,
  signature: (head) => sniffImageFormat(head) !== null || isOtherImage(head),
  contentTypes: [
    'image/jpeg',
    'image/png',
    'image/gif',
    'image/webp',
    'image/heic',
    'image/heif',
    'image/tiff',
    'image/bmp',
    'image/avif',
  ],
  extensions: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'heic', 'heif', 'tif', 'tiff', 'bmp', 'avif'],
  read: (source, ctx) => readDraftSource('image', 'a photo of a menu', source, ctx),
};
