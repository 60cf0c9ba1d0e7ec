'use strict';
/**
 * Synthetic FAQ texts for the knowledge-base bench, from a fixed vocabulary so that texts share words
 * (as real FAQs of one business do) and the offline embedder's vectors crowd into one region of the
 * space: a hard case for an approximate index, and the same distribution for every organization.
 * Deterministic: a text depends only on the generator's seed.
 */
const VOCAB = (
  'refund order delivery shipping card payment invoice account password reset menu vegan table booking hours open ' +
  'close sunday monday address parking warranty return exchange size color price discount coupon gift voucher subscription ' +
  'cancel upgrade plan support phone email chat agent ticket store branch city country abroad customs tax receipt bank ' +
  'transfer cash wallet points loyalty member app login error update install battery screen repair broken replace'
).split(' ');

/**
 * mulberry32: fast, reproducible, full 2^32 period. (An LCG multiplied in doubles loses the low bits
 * and cycles: many of its "random" texts repeat, which pgvector's HNSW stores as one element — a
 * smaller, faster index than real data gives.)
 */
function makeRand(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeTexts(seed) {
  const rand = makeRand(seed);
  const sentence = (n) => Array.from({ length: n }, () => VOCAB[Math.floor(rand() * VOCAB.length)]).join(' ');
  return {
    /** { question, answer } of an FAQ: a 4-word question and a 14-word answer. */
    faq: () => ({ question: `How do I ${sentence(4)}?`, answer: `${sentence(14)}.` }),
    /** A search query: 4 words, as a customer types them. */
    query: () => sentence(4),
    rand,
  };
}

/** The seed of the texts of seeding chunk `chunk` (workers and the bench's question sampler agree on it). */
const chunkSeed = (chunk) => 1_000_003 * (chunk + 1) + 42;

module.exports = { makeTexts, makeRand, chunkSeed, VOCAB };
