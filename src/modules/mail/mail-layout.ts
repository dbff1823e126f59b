/**
 * The one look of every mail: a text part and a simple HTML part built from the same blocks, in
 * the site's name and colour. Every text put into the HTML part is escaped here, so agent-written
 * text (and anything else) can never become markup.
 */

export interface MailBrand {
  /** The site's name, shown as the sender's name and in the footer. */
  name: string;
  /** The site's widget colour (`#rrggbb`), for the header bar and the button. */
  color: string;
}

export type MailBlock =
  | { type: 'paragraph'; text: string }
  /** A message quoted in the mail: who wrote it and what (agent-written, shown as text). */
  | { type: 'message'; author: string; text: string }
  /** A short value to read or copy (a login code, a ticket number). */
  | { type: 'code'; text: string }
  | { type: 'button'; label: string; url: string };

export interface MailBody {
  subject: string;
  blocks: MailBlock[];
  /** Small print under the blocks (why this mail came, how to stop it). */
  footer?: string[];
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Text with line breaks as HTML: escaped, each line break a `<br>`. */
function htmlLines(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>\n');
}

/** Only http(s) links become buttons; anything else is left out of the HTML part. */
function safeUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** Subjects are one line: line breaks (a header injection in other hands) become spaces. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').trim();
}

function textBlock(block: MailBlock): string {
  switch (block.type) {
    case 'paragraph':
      return block.text;
    case 'message':
      return `${block.author}:\n${block.text
        .split(/\r?\n/)
        .map((line) => `  ${line}`)
        .join('\n')}`;
    case 'code':
      return `    ${block.text}`;
    case 'button':
      return `${block.label}: ${block.url}`;
  }
}

function htmlBlock(block: MailBlock, color: string): string {
  switch (block.type) {
    case 'paragraph':
      return `<p style="margin:0 0 16px">${htmlLines(block.text)}</p>`;
    case 'message':
      return (
        `<div style="margin:0 0 16px;padding:8px 12px;border-left:3px solid ${color};background:#f6f7f9">` +
        `<div style="font-size:13px;color:#555;margin-bottom:4px">${escapeHtml(block.author)}</div>` +
        `<div>${htmlLines(block.text)}</div></div>`
      );
    case 'code':
      return `<p style="margin:0 0 16px;font-size:24px;letter-spacing:4px;font-family:monospace"><strong>${escapeHtml(block.text)}</strong></p>`;
    case 'button': {
      const url = safeUrl(block.url);
      if (!url) return '';
      return (
        `<p style="margin:0 0 16px"><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;` +
        `background:${color};color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(block.label)}</a></p>`
      );
    }
  }
}

/** The text and HTML parts of one mail; `dir` is `rtl` for right-to-left languages. */
export function renderMail(brand: MailBrand, body: MailBody, dir: 'ltr' | 'rtl'): RenderedMail {
  const color = HEX_COLOR.test(brand.color) ? brand.color : '#2563eb';
  const footer = body.footer ?? [];
  const text = [
    ...body.blocks.map(textBlock),
    ...(footer.length > 0 ? ['-- ', ...footer] : []),
    brand.name,
  ].join('\n\n');
  const html =
    `<!doctype html>\n<html dir="${dir}"><head><meta charset="utf-8">` +
    `<title>${escapeHtml(oneLine(body.subject))}</title></head>\n` +
    `<body style="margin:0;padding:0;background:#ffffff;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2328">\n` +
    `<div style="height:4px;background:${color}"></div>\n` +
    `<div style="max-width:560px;margin:0 auto;padding:24px 16px">\n` +
    `<p style="margin:0 0 24px;font-weight:bold;color:${color}">${escapeHtml(brand.name)}</p>\n` +
    body.blocks.map((block) => htmlBlock(block, color)).join('\n') +
    (footer.length > 0
      ? `\n<hr style="border:none;border-top:1px solid #ddd;margin:24px 0 12px">\n` +
        footer
          .map(
            (line) => `<p style="margin:0 0 8px;font-size:12px;color:#666">${htmlLines(line)}</p>`,
          )
          .join('\n')
      : '') +
    `\n</div>\n</body></html>\n`;
  return { subject: oneLine(body.subject), text: `${text}\n`, html };
}
