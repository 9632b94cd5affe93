/**
 * The API's one naming rule for the properties it defines: the documented contract's own style, lower case with no
 * separators (`accesstoken`, `lastname`, `createdat`). Protocol fields keep their standard's names (`code_verifier`,
 * `client_id`) and are written as such where they are answered; this is for the records the service shows as they
 * are kept (an export's `records`, an account's records in the admin API), whose keys come from the store.
 */
export const apiName = (name: string): string => name.toLowerCase().replace(/[-_]/g, '');

/** `value` with every object key, at every depth, renamed by the naming rule (dates and other values unchanged). */
export const withApiNames = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withApiNames);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([key, nested]) => [apiName(key), withApiNames(nested)]));
};
