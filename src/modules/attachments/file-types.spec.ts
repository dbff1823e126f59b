import { acceptedType, contentDisposition, safeFileName, signatureOf } from './file-types';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]);
const PDF = Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n');
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04, 20, 0]);

describe('attachment file types', () => {
  it('recognises image and document signatures', () => {
    expect(signatureOf(PNG)).toBe('png');
    expect(signatureOf(JPEG)).toBe('jpeg');
    expect(signatureOf(Buffer.from('GIF89a....'))).toBe('gif');
    expect(signatureOf(WEBP)).toBe('webp');
    expect(signatureOf(PDF)).toBe('pdf');
    expect(signatureOf(ZIP)).toBe('zip');
    expect(signatureOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeUndefined();
  });

  it('accepts an image only when its bytes are that image', () => {
    expect(acceptedType('image/png', 'a.png', PNG)?.contentType).toBe('image/png');
    expect(acceptedType('image/png', 'a.png', PNG)?.inline).toBe(true);
    expect(acceptedType('image/png', 'a.png', Buffer.from('<script>alert(1)</script>'))).toBe(
      undefined,
    );
    expect(acceptedType('image/jpeg', 'a.jpg', PNG)).toBeUndefined();
    expect(acceptedType('image/jpg', 'a.jpg', JPEG)?.contentType).toBe('image/jpeg');
  });

  it('refuses types outside the allow-list, SVG and HTML included', () => {
    expect(acceptedType('image/svg+xml', 'a.svg', Buffer.from('<svg/>'))).toBeUndefined();
    expect(acceptedType('text/html', 'a.html', Buffer.from('<html></html>'))).toBeUndefined();
    expect(acceptedType('application/x-msdownload', 'a.exe', Buffer.from('MZ'))).toBeUndefined();
  });

  it('infers the type of an octet-stream from the extension, then checks the bytes', () => {
    expect(acceptedType('application/octet-stream', 'invoice.pdf', PDF)?.contentType).toBe(
      'application/pdf',
    );
    expect(acceptedType('application/octet-stream', 'invoice.pdf', PNG)).toBeUndefined();
    expect(acceptedType('', 'notes.txt', Buffer.from('hello'))?.contentType).toBe('text/plain');
    expect(acceptedType('application/octet-stream', 'run.sh', Buffer.from('#!'))).toBeUndefined();
  });

  it('accepts text that is UTF-8 without NUL bytes, documents that are downloads', () => {
    expect(acceptedType('text/plain', 'a.txt', Buffer.from('grüße\n'))?.inline).toBe(false);
    expect(acceptedType('text/csv; charset=utf-8', 'a.csv', Buffer.from('a,b\n1,2'))).toBeDefined();
    expect(acceptedType('text/plain', 'a.txt', Buffer.from([0x41, 0, 0x42]))).toBeUndefined();
    expect(acceptedType('text/plain', 'a.txt', Buffer.from([0xff, 0xfe, 0x41]))).toBeUndefined();
    // A multi-byte character cut by the 8 KiB window is still text.
    const cut = Buffer.concat([Buffer.alloc(8191, 0x61), Buffer.from('é')]);
    expect(acceptedType('text/plain', 'a.txt', cut)).toBeDefined();
  });

  it('keeps file names to a safe last segment and writes both Content-Disposition forms', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\Users\\a\\"quote".png')).toBe('quote.png');
    expect(safeFileName('\u0000\u0007')).toBe('file');
    expect(safeFileName(undefined)).toBe('file');
    expect(contentDisposition('Grüße.pdf', false)).toBe(
      `attachment; filename="Gr__e.pdf"; filename*=UTF-8''Gr%C3%BC%C3%9Fe.pdf`,
    );
    expect(contentDisposition('photo.png', true)).toMatch(/^inline; filename="photo.png"/);
  });
});
