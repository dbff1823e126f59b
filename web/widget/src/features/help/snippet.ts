const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/**
 * A search snippet as the server sends it (the text HTML-escaped, the matches in `<mark>`) cut
 * into plain text parts, each marked or not: the widget draws them as text, never as markup.
 */
export function snippetParts(html: string): { text: string; mark: boolean }[] {
  const parts: { text: string; mark: boolean }[] = [];
  let mark = false;
  for (const piece of html.split(/(<\/?mark>)/)) {
    if (piece === '<mark>') mark = true;
    else if (piece === '</mark>') mark = false;
    else if (piece) {
      parts.push({ text: piece.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]), mark });
    }
  }
  return parts;
}
