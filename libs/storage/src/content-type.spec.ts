import { contentTypeFor } from './content-type';

describe('contentTypeFor', () => {
  it.each([
    ['a/b/photo.JPG', 'image/jpeg'],
    ['voice.opus', 'audio/ogg'],
    ['doc.pdf', 'application/pdf'],
    ['x.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['notes.txt', 'text/plain; charset=utf-8'],
    ['no-extension', 'application/octet-stream'],
    ['.hidden', 'application/octet-stream'],
    ['weird.zzz', 'application/octet-stream'],
    ['dir.jpg/file', 'application/octet-stream'],
  ])('%s → %s', (name, type) => {
    expect(contentTypeFor(name)).toBe(type);
  });
});
