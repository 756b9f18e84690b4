/**
 * Share links as merchants paste them: the page a cloud drive shows for a file is not the file. A
 * Google Sheets or Docs link, a Google Drive file page and a Dropbox share link are fetched as the download
 * they stand for; every other URL is fetched as given. The source keeps the merchant's URL in results.
 */

const GOOGLE_ID = /^[\w-]{10,}$/;

export interface ShareLink {
  /** The URL fetched in place of the merchant's. */
  readonly download: string;
  /** Names the service in messages (`Google Sheets`, …). */
  readonly service: string;
}

/**
 * The download a share link stands for, or undefined when the URL is fetched as given.
 *
 * @example shareLinkDownload('https://docs.google.com/spreadsheets/d/1AbC…/edit#gid=0')
 * // { download: 'https://docs.google.com/spreadsheets/d/1AbC…/export?format=xlsx', service: 'Google Sheets' }
 */
export const shareLinkDownload = (source: string): ShareLink | undefined => {
  if (!URL.canParse(source)) return undefined;
  const url = new URL(source);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const host = url.hostname.toLowerCase();
  const path = url.pathname;
  if (host === 'docs.google.com') {
    // Published to the web: /spreadsheets/d/e/<id>/pubhtml → the published workbook as XLSX.
    const published = /^\/spreadsheets\/d\/e\/([\w-]+)\/pub(?:html)?(?:\/|$)/.exec(path)?.[1];
    if (published && GOOGLE_ID.test(published) && url.searchParams.get('output') === null)
      return {
        download: `https://docs.google.com/spreadsheets/d/e/${published}/pub?output=xlsx`,
        service: 'Google Sheets',
      };
    const match = /^\/(spreadsheets|document)\/(?:u\/\d+\/)?d\/([\w-]+)(\/[^?#]*)?$/.exec(path);
    const [, kind, id, rest = ''] = match ?? [];
    if (kind && id && GOOGLE_ID.test(id) && !/^\/(?:export|pub)\b/.test(rest)) {
      // Every tab of a spreadsheet (a workbook reads them all); a document as the PDF a menu is drafted from.
      return kind === 'spreadsheets'
        ? {
            download: `https://docs.google.com/spreadsheets/d/${id}/export?format=xlsx`,
            service: 'Google Sheets',
          }
        : { download: `https://docs.google.com/document/d/${id}/export?format=pdf`, service: 'Google Docs' };
    }
  }
  if (host === 'drive.google.com') {
    const id =
      /^\/file\/(?:u\/\d+\/)?d\/([\w-]+)(?:\/|$)/.exec(path)?.[1] ??
      (path === '/open' ? url.searchParams.get('id') : null);
    if (id && GOOGLE_ID.test(id))
      return { download: `https://drive.google.com/uc?export=download&id=${id}`, service: 'Google Drive' };
  }
  if ((host === 'www.dropbox.com' || host === 'dropbox.com') && /^\/(?:s|sh|scl\/fi)\//.test(path)) {
    if (url.searchParams.get('dl') === '1' || url.searchParams.has('raw')) return undefined;
    url.searchParams.set('dl', '1');
    url.hash = '';
    return { download: url.toString(), service: 'Dropbox' };
  }
  return undefined;
};

/** A share link that answered with its service's sign-in page: the file is not shared with everyone. */
export const isSignInPage = (link: ShareLink, finalUrl: string): boolean => {
  if (!URL.canParse(finalUrl)) return false;
  const host = new URL(finalUrl).hostname.toLowerCase();
  return (
    (link.service.startsWith('Google') && host === 'accounts.google.com') ||
    (link.service === 'Dropbox' && /^\/login\b/.test(new URL(finalUrl).pathname))
  );
};
