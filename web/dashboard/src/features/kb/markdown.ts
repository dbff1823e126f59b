/**
 * The article preview renders with the server's own Markdown module (markdown-it, raw HTML off,
 * the same link rules), so what the editor shows is what visitors will see.
 */
export { renderMarkdown } from '../../../../../src/modules/knowledge-base/markdown';
