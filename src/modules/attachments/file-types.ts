/**
 * The file types an attachment may have, and the check of a file's leading bytes. Images must
 * be what their bytes say (a script renamed `.png` is refused); SVG and HTML are never accepted,
 * as a browser would run their scripts.
 */
export interface AcceptedType {
  /** The content type the file is stored and served with. */
  contentType: string;
  /** Shown inline by browsers (images only); everything else is downloaded. */
  inline: boolean;
  /** The file's leading bytes must match; undefined: checked as text, or not checkable. */
  signature?: 'png' | 'jpeg' | 'gif' | 'webp' | 'pdf' | 'zip' | 'ole';
  text?: boolean;
}

const ZIP_DOCUMENTS: Record<string, string> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/zip': 'zip',
};

export const ACCEPTED_TYPES: readonly AcceptedType[] = [
  { contentType: 'image/png', inline: true, signature: 'png' },
  { contentType: 'image/jpeg', inline: true, signature: 'jpeg' },
  { contentType: 'image/gif', inline: true, signature: 'gif' },
  { contentType: 'image/webp', inline: true, signature: 'webp' },
  { contentType: 'application/pdf', inline: false, signature: 'pdf' },
  ...Object.keys(ZIP_DOCUMENTS).map((contentType) => ({
    contentType,
    inline: false,
    signature: 'zip' as const,
  })),
  { contentType: 'application/msword', inline: false, signature: 'ole' },
  { contentType: 'application/vnd.ms-excel', inline: false, signature: 'ole' },
  { contentType: 'text/plain', inline: false, text: true },
  { contentType: 'text/csv', inline: false, text: true },
];

const EXTENSIONS: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  txt: 'text/plain',
  log: 'text/plain',
  csv: 'text/csv',
  ...Object.fromEntries(Object.entries(ZIP_DOCUMENTS).map(([type, ext]) => [ext, type])),
};

const startsWith = (bytes: Buffer, prefix: number[], at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image or document signature the leading bytes carry, if any. */
export function signatureOf(bytes: Buffer): AcceptedType['signature'] {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  if (startsWith(bytes, ascii('%PDF-'))) return 'pdf';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  return undefined;
}

/** Text files: no NUL byte in the first 8 KiB and valid UTF-8 there (a cut last character aside). */
function looksLikeText(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, cutPoint(head)));
    return true;
  } catch {
    return false;
  }
}

/** Where a UTF-8 sequence cut by the 8 KiB window starts, so it is not counted as invalid. */
function cutPoint(head: Buffer): number {
  for (let back = 1; back <= 3 && back <= head.length; back++) {
    const byte = head[head.length - back];
    if ((byte & 0xc0) === 0xc0) return head.length - back;
    if ((byte & 0x80) === 0) break;
  }
  return head.length;
}

/**
 * The accepted type of an upload, from its declared type (or, for `application/octet-stream`
 * and an empty type, its file name's extension), checked against its bytes. Undefined: refused.
 */
export function acceptedType(
  declared: string | undefined,
  fileName: string,
  bytes: Buffer,
): AcceptedType | undefined {
  let contentType = (declared ?? '').split(';')[0].trim().toLowerCase();
  if (contentType === '' || contentType === 'application/octet-stream') {
    const extension = fileName.toLowerCase().split('.').pop() ?? '';
    contentType = EXTENSIONS[extension] ?? '';
  }
  if (contentType === 'image/jpg') contentType = 'image/jpeg';
  const type = ACCEPTED_TYPES.find((candidate) => candidate.contentType === contentType);
  if (!type) return undefined;
  if (type.signature) return signatureOf(bytes) === type.signature ? type : undefined;
  if (type.text) return looksLikeText(bytes) ? type : undefined;
  return undefined;
}

/**
 * A file name safe to store and to put in a header: the last path segment, without control
 * characters, at most 255 characters; `file` when nothing is left.
 */
export function safeFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return (cleaned || 'file').slice(0, 255);
}

/** `Content-Disposition` for a download: inline only for images, the name in both forms. */
export function contentDisposition(fileName: string, inline: boolean): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/[\\%]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
