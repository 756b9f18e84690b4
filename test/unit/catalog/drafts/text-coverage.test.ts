import type { GrayImage, PageRasterizer } from '../../../../lambdas/core/catalog/drafts/ports';
import { inkCoverage, textLayerMissesInk } from '../../../../lambdas/core/catalog/drafts/text-coverage';
import { aRun } from '../../../fixtures/drafts/runs';

const PAGE = { width: 200, height: 300 };

/** A white page (1 px a page unit) with black bars where `lines` are drawn. */
const drawn = (
  lines: readonly { x: number; y: number; width: number; height: number }[],
  dark = false,
): GrayImage => {
  const pixels = new Uint8Array(PAGE.width * PAGE.height).fill(dark ? 20 : 255);
  for (const l of lines)
    for (let y = l.y; y < l.y + l.height; y++)
      pixels.fill(dark ? 240 : 0, y * PAGE.width + l.x, y * PAGE.width + l.x + l.width);
  return { ...PAGE, pixels };
};

/** The header the text layer has, and twenty dish lines drawn as outlines (no text for them). */
const header = [aRun('NEW PALACE', 40, 10, { size: 12 })];
const dishes = Array.from({ length: 20 }, (_, i) => ({ x: 20, y: 40 + i * 12, width: 150, height: 7 }));
const headerInk = { x: 40, y: 12, width: 60, height: 9 };

const fakes = (image: GrayImage): { rasterizer: PageRasterizer; drawnPages: number[] } => {
  const drawnPages: number[] = [];
  return {
    drawnPages,
    rasterizer: {
      rasterize: async (_pdf, page) => {
        drawnPages.push(page);
        return image;
      },
      release: async () => undefined,
    },
  };
};

describe('text coverage (issue 23: a text layer that misses what the page draws)', () => {
  it('measures the ink outside the text boxes, on light and dark pages', () => {
    expect(inkCoverage(drawn([headerInk, ...dishes]), { ...PAGE, runs: header }).outside).toBeGreaterThan(
      0.9,
    );
    expect(inkCoverage(drawn([headerInk]), { ...PAGE, runs: header }).outside).toBe(0);
    expect(
      inkCoverage(drawn([headerInk, ...dishes], true), { ...PAGE, runs: header }).outside,
    ).toBeGreaterThan(0.9);
  });

  it('sends a page whose dishes are drawn as outlines to OCR', async () => {
    const deps = fakes(drawn([headerInk, ...dishes]));
    await expect(textLayerMissesInk(new Uint8Array(), 2, { ...PAGE, runs: header }, deps)).resolves.toBe(
      true,
    );
    expect(deps.drawnPages).toEqual([2]);
  });

  it('trusts a page whose text layer holds what is drawn, and never draws a page full of text', async () => {
    await expect(
      textLayerMissesInk(new Uint8Array(), 1, { ...PAGE, runs: header }, fakes(drawn([headerInk]))),
    ).resolves.toBe(false);
    const full = dishes.map((d, i) => aRun(`Dish number ${i} with a long name`, d.x, d.y, { size: 7 }));
    const deps = fakes(drawn([headerInk, ...dishes]));
    await expect(textLayerMissesInk(new Uint8Array(), 1, { ...PAGE, runs: full }, deps)).resolves.toBe(false);
    expect(deps.drawnPages).toEqual([]);
  });

  it('trusts the text layer where the page cannot be drawn here', async () => {
    await expect(textLayerMissesInk(new Uint8Array(), 1, { ...PAGE, runs: header }, {})).resolves.toBe(false);
  });
});
