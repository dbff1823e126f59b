import MarkdownIt from 'markdown-it';
// Loaded at start-up, unlike the other parsers (src/common/lazy-module.ts): this module is also
// the dashboard's preview (web/dashboard/src/features/kb/markdown.ts), built for the browser.

/**
 * Article Markdown to HTML (DESIGN section 10), on the server, with markdown-it: raw HTML off
 * (`<script>` stays text), bare addresses linked, every link `rel="nofollow noopener"`. Links and
 * images may only use http(s), mailto, tel or a relative address: `javascript:`, `data:`,
 * `vbscript:` and `file:` are refused (the link stays as text).
 */
const SAFE_LINK = /^(?:https?:|mailto:|tel:|#|\/|\.{0,2}\/|[^:]*$)/i;

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

markdown.validateLink = (url: string): boolean => {
  // What browsers ignore inside a scheme (control characters, whitespace) cannot smuggle one.
  // eslint-disable-next-line no-control-regex
  const cleaned = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  return SAFE_LINK.test(cleaned);
};

const defaultLinkOpen =
  markdown.renderer.rules.link_open ??
  ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));

markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index].attrSet('rel', 'nofollow noopener');
  return defaultLinkOpen(tokens, index, options, env, self);
};

/** The article's HTML: safe to place in a page as it is. */
export function renderMarkdown(source: string): string {
  return markdown.render(source);
}

/** The article's words without markup, for search and snippets. */
export function markdownToText(source: string): string {
  const html = renderMarkdown(source);
  return html
    .replace(/<\/(p|h[1-6]|li|pre|blockquote|tr)>/g, '\n')
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim();
}
