/** A box in fractions of the page (0–1, origin top left), as the service's provenance gives it. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

const pct = (n: number) => `${Math.min(Math.max(n, 0), 1) * 100}%`;

/** The outline of where an item was read, over the page or image (positioned through CSSOM, not markup). */
export const Highlight = ({ box }: { box: Box }) => (
  <div
    class="highlight-box"
    aria-hidden="true"
    style={{ left: pct(box.x), top: pct(box.y), width: pct(box.width), height: pct(box.height) }}
  />
);
