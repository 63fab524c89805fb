/** Where the hosted link pages live under the public base URL (docs/checkout.md, Payment link pages); `:token` is the link's token. */
export const LINK_PAGE_PATHS = {
  page: "/l/:token",
  /** JSON `{bin}` -> options like docs/contract.md, Options for a card (the live table of the one-page form). */
  options: "/l/:token/options",
  /** Without JavaScript, step 1 -> 2: the first 8 digits -> the options. */
  installments: "/l/:token/installments",
  /** Without JavaScript, step 2 -> 3: the chosen count -> the card form. */
  card: "/l/:token/card",
  /** The card form (both ways) -> the bank's 3D form. */
  pay: "/l/:token/pay",
  /** Where the relay's callback sends the buyer (the link payment's returnUrl). */
  result: "/l/:token/result",
} as const;

export type LinkPagePath = keyof typeof LINK_PAGE_PATHS;

/** Path of one page of a link; the token is base64url, so it needs no escaping, but gets it anyway. */
const linkPathOf = (page: LinkPagePath, token: string): string => LINK_PAGE_PATHS[page].replace(":token", encodeURIComponent(token));

/** Absolute URL of one page of a link, under the public base URL as the link's own `url` (docs/contract.md, The link record). */
export const linkUrlOf = (baseUrl: string, page: LinkPagePath, token: string): string => `${baseUrl}${linkPathOf(page, token)}`;
