import { type HtmlElement, type HtmlParent, parseDocument } from './html-document';
/** A question and its answer found on a page (DESIGN section 11: a bot reply). */
export interface QuestionAnswer {
  question: string;
  answer: string;
}

const MAX_QUESTION = 300;
const MAX_ANSWER = 4000;

/**
 * The page's question-and-answer pairs, in the four forms sites use: schema.org `FAQPage`
 * JSON-LD, `<details><summary>`, `<dt>/<dd>`, and headings ending with a question mark with the
 * text under them. The first form a question is found in wins (the same FAQ is often both
 * marked up and shown).
 */
export function extractQuestions(document: HtmlParent): QuestionAnswer[] {
  const found = new Map<string, QuestionAnswer>();
  const add = (question: string, answer: string) => {
    const q = clean(question).slice(0, MAX_QUESTION);
    const a = clean(answer).slice(0, MAX_ANSWER);
    const key = q.toLowerCase();
    if (q.length < 3 || a.length < 2 || found.has(key)) return;
    found.set(key, { question: q, answer: a });
  };
  for (const pair of fromJsonLd(document)) add(pair.question, pair.answer);
  for (const details of Array.from(document.querySelectorAll('details'))) {
    const summary = details.querySelector('summary');
    if (!summary) continue;
    const answer = textWithout(details, summary);
    add(summary.textContent ?? '', answer);
  }
  for (const term of Array.from(document.querySelectorAll('dt'))) {
    let next = term.nextElementSibling;
    const answers: string[] = [];
    while (next && next.tagName === 'DD') {
      answers.push(next.textContent ?? '');
      next = next.nextElementSibling;
    }
    add(term.textContent ?? '', answers.join('\n'));
  }
  for (const heading of Array.from(document.querySelectorAll('h2, h3, h4, h5, h6'))) {
    const question = clean(heading.textContent ?? '');
    if (!question.endsWith('?')) continue;
    add(question, textUnder(heading));
  }
  return [...found.values()];
}

function clean(text: string): string {
  return text
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/ *\n[\n ]*/g, '\n')
    .trim();
}

/** The text of `parent` without that of one child (a `<details>` without its `<summary>`). */
function textWithout(parent: HtmlElement, child: HtmlElement): string {
  return Array.from(parent.childNodes)
    .filter((node) => node !== child)
    .map((node) => node.textContent ?? '')
    .join('\n');
}

/** The text after a heading up to the next heading of the same or a higher level. */
function textUnder(heading: HtmlElement): string {
  const level = Number(heading.tagName.slice(1));
  const parts: string[] = [];
  for (let node = heading.nextElementSibling; node; node = node.nextElementSibling) {
    const match = /^H([1-6])$/.exec(node.tagName);
    if (match && Number(match[1]) <= level) break;
    parts.push(node.textContent ?? '');
  }
  return parts.join('\n');
}

interface JsonLdQuestion {
  '@type'?: unknown;
  name?: unknown;
  acceptedAnswer?: { text?: unknown } | Array<{ text?: unknown }>;
}

function fromJsonLd(document: HtmlParent): QuestionAnswer[] {
  const pairs: QuestionAnswer[] = [];
  for (const script of Array.from(
    document.querySelectorAll('script[type="application/ld+json"]'),
  )) {
    let data: unknown;
    try {
      data = JSON.parse(script.textContent ?? '');
    } catch {
      continue;
    }
    for (const node of flatten(data)) {
      if (!isType(node, 'FAQPage')) continue;
      const entities = (node as { mainEntity?: unknown }).mainEntity;
      for (const entity of (Array.isArray(entities) ? entities : [entities]) as JsonLdQuestion[]) {
        if (!entity || !isType(entity, 'Question') || typeof entity.name !== 'string') continue;
        const answers = Array.isArray(entity.acceptedAnswer)
          ? entity.acceptedAnswer
          : [entity.acceptedAnswer];
        const text = answers.find((answer) => typeof answer?.text === 'string')?.text;
        if (typeof text === 'string')
          pairs.push({ question: entity.name, answer: stripTags(text) });
      }
    }
  }
  return pairs;
}

function flatten(data: unknown): unknown[] {
  if (Array.isArray(data)) return data.flatMap(flatten);
  if (data && typeof data === 'object' && '@graph' in data) {
    return [data, ...flatten(data['@graph'])];
  }
  return [data];
}

function isType(node: unknown, type: string): boolean {
  const value = (node as { '@type'?: unknown } | null)?.['@type'];
  return value === type || (Array.isArray(value) && value.includes(type));
}

/** The text of an HTML fragment (JSON-LD answers are often HTML), lines kept per block. */
function stripTags(html: string): string {
  const document = parseDocument(`<html><body>${html.replace(/<br\s*\/?>/gi, '\n')}</body></html>`);
  for (const block of Array.from(document.querySelectorAll('p, li, div'))) block.append('\n');
  return document.body.textContent ?? '';
}
