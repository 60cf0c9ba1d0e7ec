import { randomBytes } from 'node:crypto';
import { REPLY_CHUNK_BYTES, SINGLE_MESSAGE_REPLY_BYTES, joinChunks, replyChunkPayload, splitIntoChunks } from './rpc-codec';

const MiB = 1024 * 1024;

describe('splitIntoChunks / joinChunks', () => {
  it('keeps a small body in one chunk, byte for byte', () => {
    const body = new TextEncoder().encode(JSON.stringify({ from: 1, to: 1, count: 1, messages: [{ body: 'héllo ✓' }] }));
    const chunks = splitIntoChunks(body, MiB);
    expect(chunks).toHaveLength(1);
    expect(Buffer.compare(joinChunks(chunks), Buffer.from(body))).toBe(0);
  });

  it('keeps an empty body as one empty chunk', () => {
    const chunks = splitIntoChunks(new Uint8Array(0), MiB);
    expect(chunks).toHaveLength(1);
    expect(joinChunks(chunks).length).toBe(0);
  });

  it('splits a body of several MiB into chunks that each fit the max payload, and joins them back exactly', () => {
    const body = randomBytes(5 * MiB + 12_345);
    const chunks = splitIntoChunks(body, MiB);
    expect(chunks.length).toBeGreaterThanOrEqual(6);
    for (const chunk of chunks) {
      expect(chunk.length).toBeGreaterThan(0);
      expect(chunk.length).toBeLessThan(MiB); // room is left for the headers of the NATS message
    }
    expect(chunks.reduce((n, c) => n + c.length, 0)).toBe(body.length);
    const joined = joinChunks(chunks);
    expect(joined.length).toBe(body.length);
    expect(Buffer.compare(joined, body)).toBe(0);
  });

  it('honours a smaller max payload', () => {
    const maxPayload = 64 * 1024;
    const body = randomBytes(3 * MiB);
    const chunks = splitIntoChunks(body, maxPayload);
    expect(chunks.length).toBeGreaterThan((3 * MiB) / maxPayload);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(maxPayload);
    expect(Buffer.compare(joinChunks(chunks), body)).toBe(0);
  });

  it('splits a body one byte over the chunk size into two chunks', () => {
    const maxPayload = 64 * 1024;
    const one = splitIntoChunks(randomBytes(maxPayload - 1024), maxPayload);
    const two = splitIntoChunks(randomBytes(maxPayload - 1024 + 1), maxPayload);
    expect(one).toHaveLength(1);
    expect(two).toHaveLength(2);
    expect(two[1]).toHaveLength(1);
  });

  it('sends replies up to SINGLE_MESSAGE_REPLY_BYTES as one message, larger ones in chunks of REPLY_CHUNK_BYTES', () => {
    const small = randomBytes(SINGLE_MESSAGE_REPLY_BYTES);
    expect(splitIntoChunks(small, replyChunkPayload(small.length, MiB))).toHaveLength(1);
    const large = randomBytes(SINGLE_MESSAGE_REPLY_BYTES + 1);
    const chunks = splitIntoChunks(large, replyChunkPayload(large.length, MiB));
    expect(chunks).toHaveLength(Math.ceil(large.length / REPLY_CHUNK_BYTES));
    expect(Buffer.concat(chunks).equals(large)).toBe(true);
    // a server whose max_payload is smaller than a reply chunk still bounds it
    expect(replyChunkPayload(large.length, 8 * 1024)).toBe(8 * 1024);
  });
});
