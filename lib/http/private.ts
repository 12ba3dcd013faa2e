/** Headers of pages and answers behind a secret link (claims): never cached, no referrer sent. */
export const PRIVATE_HEADERS = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
} as const;
