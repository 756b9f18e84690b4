/** heic-decode ships no types: the one call the image decoder makes (its README's). */
declare module 'heic-decode' {
  interface DecodedHeic {
    readonly width: number;
    readonly height: number;
    /** RGBA, 4 bytes a pixel. */
    readonly data: Uint8ClampedArray;
  }
  function decode(input: { buffer: Uint8Array | ArrayBuffer }): Promise<DecodedHeic>;
  export default decode;
}
