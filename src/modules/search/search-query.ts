/**
 * A PostgreSQL `tsquery` (config `simple`) matching every word of `text` as a prefix, or
 * undefined when the text holds no letter or digit. Only runs of letters and digits reach the
 * query, so no operator a visitor or agent types can change its meaning.
 */
export function prefixTsQuery(text: string): string | undefined {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 10);
  if (words.length === 0) return undefined;
  return words.map((word) => `${word}:*`).join(' & ');
}
