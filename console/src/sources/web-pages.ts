import type { WebPageRef } from '../api/types';
import { decodeText } from './source-kind';

/**
 * A web source as the service keeps it for review: the page(s) the machine read, as UTF-8 text one after
 * the other, and where each lies (`sources[].web_pages`). Pure, so that it is tested outside a browser;
 * html-view.tsx shows the pages.
 */

export interface WebPageText {
  readonly page: number;
  /** Null for an uploaded page (it has no address). */
  readonly url: string | null;
  readonly html: string;
}

/** The pages of a kept copy; the whole of it as one page when the service says nothing of pages. */
export const splitWebPages = (
  bytes: Uint8Array,
  pages: readonly WebPageRef[] | null | undefined,
): WebPageText[] => {
  const utf8 = new TextDecoder('utf-8');
  const found = (pages ?? [])
    .filter(
      (p) =>
        Number.isInteger(p.offset) &&
        Number.isInteger(p.length) &&
        p.offset >= 0 &&
        p.length >= 0 &&
        p.offset + p.length <= bytes.length,
    )
    .map((p) => ({
      page: p.page,
      url: p.url,
      html: utf8.decode(bytes.subarray(p.offset, p.offset + p.length)),
    }));
  return found.length > 0 ? found : [{ page: 1, url: null, html: decodeText(bytes) }];
};
