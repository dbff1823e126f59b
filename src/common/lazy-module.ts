/**
 * A dependency loaded on its first use, once, instead of at start-up: the parsers and clients
 * that only some installations use (content import, inbound mail and IMAP, single sign-on,
 * two-factor, calendar invites) stay out of an idle process's memory until then
 * (issue 33: idle RSS; together about 25 MiB). `load` is
 * `() => require('name') as typeof import('name')`: a `require` that runs when called, typed as
 * the static import would be (the server is compiled to CommonJS).
 */
export function lazyModule<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}
