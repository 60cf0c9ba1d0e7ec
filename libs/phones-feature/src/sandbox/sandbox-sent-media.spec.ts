import { imageSize } from './sandbox-sent-media';

describe("imageSize (a sent image's box)", () => {
  it('reads PNG, GIF and JPEG headers; anything else or a cut header is 0 × 0', () => {
    const png = Buffer.alloc(24);
    png.writeUInt32BE(0x89504e47, 0);
    png.write('IHDR', 12, 'latin1');
    png.writeUInt32BE(640, 16);
    png.writeUInt32BE(480, 20);
    expect(imageSize(png)).toEqual({ width: 640, height: 480 });
    const gif = Buffer.from('GIF89a\x20\x03\x58\x02', 'latin1');
    expect(imageSize(gif)).toEqual({ width: 800, height: 600 });
    // SOI, an APP0 segment (16 bytes), a DHT segment (4), then SOF0: precision, height 300, width 200.
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
      Buffer.alloc(14),
      Buffer.from([0xff, 0xc4, 0x00, 0x04, 0x00, 0x00]),
      Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x2c, 0x00, 0xc8, 0x03]),
    ]);
    expect(imageSize(jpeg)).toEqual({ width: 200, height: 300 });
    for (const other of [Buffer.from('%PDF-1.4'), png.subarray(0, 20), jpeg.subarray(0, 12), Buffer.alloc(0)])
      expect(imageSize(other)).toEqual({ width: 0, height: 0 });
  });
});
