import { validAttachments } from './attachment-items';

describe('message attachments', () => {
  it('shows only items with an id, a name, a type and an http(s) address', () => {
    const good = {
      id: 12,
      file_name: 'invoice.pdf',
      content_type: 'application/pdf',
      size: 48213,
      url: 'https://chat.example.com/api/attachments/att_x',
    };
    expect(
      validAttachments([
        good,
        { ...good, id: '12' },
        { ...good, url: 'javascript:alert(1)' },
        { file_name: 'x' },
      ]),
    ).toEqual([good]);
  });
});
