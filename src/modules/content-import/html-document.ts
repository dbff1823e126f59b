import { lazyModule } from '../../common/lazy-module';

/*
 * The few DOM members the import reads, typed here: the server is compiled without the DOM
 * library (its globals would shadow Node's), and linkedom's types lean on it.
 */
export interface HtmlNode {
  textContent: string | null;
}

export interface HtmlElement extends HtmlNode, HtmlParent {
  tagName: string;
  innerHTML: string;
  nextElementSibling: HtmlElement | null;
  childNodes: ArrayLike<HtmlNode>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  append(...text: string[]): void;
}

export interface HtmlParent {
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): ArrayLike<HtmlElement>;
}

export interface HtmlDocument extends HtmlParent {
  body: HtmlElement;
}

// linkedom's own types need the DOM library, which the server is compiled without.
const parse = lazyModule(
  () =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
    (require('linkedom') as typeof import('linkedom')).parseHTML as unknown as (html: string) => {
      document: unknown;
    },
);

/** An HTML (or XML sitemap) text as a document, by linkedom (no browser, no scripts run). */
export function parseDocument(html: string): HtmlDocument {
  return parse()(html).document as HtmlDocument;
}
