'use strict';
/**
 * Worker thread of the seeder: makes one chunk of rows at a time — synthetic FAQ text, its vector from
 * the real offline embedder (the service's own code, libs/knowledge-base-feature/dist), and the row in
 * PostgreSQL's binary COPY format — so the vectors never pass through pgvector's text parser.
 */
const { parentPort, workerData } = require('node:worker_threads');
const { OfflineHashEmbedder } = require(workerData.embedderPath);
const { makeTexts, chunkSeed } = require('./texts');

const embedder = new OfflineHashEmbedder();
const orgIds = workerData.orgIds.map((id) => Buffer.from(id.replace(/-/g, ''), 'hex'));
const TYPE = Buffer.from('faq');
const MODEL = Buffer.from(embedder.model);
const FIELDS = 7; // org_id, type, question, answer, is_active, embedding, embedding_model

/** One chunk of rows as binary COPY tuples (no header/trailer: the main thread adds them once). */
function makeChunk(chunk, orgIndex) {
  const texts = makeTexts(chunkSeed(chunk));
  const parts = [];
  for (let i = 0; i < orgIndex.length; i++) {
    const { question, answer } = texts.faq();
    const vector = embedder.embedOne(`${question}\n${answer}`); // embeddingText(): question + "\n" + answer
    const q = Buffer.from(question);
    const a = Buffer.from(answer);
    const vecLen = 4 + 4 * vector.length; // vector_recv: int16 dim, int16 unused (0), float4 × dim
    const size = 2 + (4 + 16) + (4 + TYPE.length) + (4 + q.length) + (4 + a.length) + (4 + 1) + (4 + vecLen) + (4 + MODEL.length);
    const b = Buffer.allocUnsafe(size);
    let o = b.writeInt16BE(FIELDS, 0);
    o = b.writeInt32BE(16, o);
    o += orgIds[orgIndex[i]].copy(b, o);
    o = b.writeInt32BE(TYPE.length, o);
    o += TYPE.copy(b, o);
    o = b.writeInt32BE(q.length, o);
    o += q.copy(b, o);
    o = b.writeInt32BE(a.length, o);
    o += a.copy(b, o);
    o = b.writeInt32BE(1, o);
    o = b.writeUInt8(1, o); // is_active = true
    o = b.writeInt32BE(vecLen, o);
    o = b.writeInt16BE(vector.length, o);
    o = b.writeInt16BE(0, o);
    for (const x of vector) o = b.writeFloatBE(x, o);
    o = b.writeInt32BE(MODEL.length, o);
    o += MODEL.copy(b, o);
    parts.push(b);
  }
  return Buffer.concat(parts);
}

parentPort.on('message', ({ chunk, orgIndex }) => {
  const buf = makeChunk(chunk, orgIndex);
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
  parentPort.postMessage({ chunk, buf: ab }, [ab]);
});
