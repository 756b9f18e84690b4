/**
 * The operator's key lives in this tab's sessionStorage only (SPEC 5.4: kept in the browser session): it is
 * gone when the tab closes, never in localStorage, a cookie or the URL.
 */
const KEY = 'catalog-ops.api-key';

export const storedKey = (): string | null => {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
};

export const storeKey = (key: string): void => sessionStorage.setItem(KEY, key);

export const forgetKey = (): void => sessionStorage.removeItem(KEY);

/** What an operator key looks like (`cjk_live_…`, `cjk_test_…`); anything else is refused before a request. */
export const looksLikeKey = (key: string): boolean => /^[A-Za-z0-9_-]{16,200}$/.test(key);
