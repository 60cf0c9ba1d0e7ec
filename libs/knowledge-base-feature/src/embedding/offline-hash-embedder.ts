import { EMBEDDING_DIMENSIONS, l2Normalize, type EmbeddingProvider } from './embedding-provider';

// Words that carry little meaning get a small weight so that "how do I ..." questions match on content.
const STOPWORDS = new Set(
  (
    'a an and are as at be by can do does for from has have how i if in is it its me my of on or our so that the their ' +
    'there this to was we what when where which who why will with you your'
  ).split(' '),
);

/** FNV-1a, 32 bits: fast, stable across processes and versions (the vectors are stored). */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function tokenize(text: string): string[] {
  const plain = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
  return plain.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The built-in offline embedder ("offline-hash-v1"): feature hashing of words (weight 1), word
 * bigrams (0.5) and character trigrams of words (0.4, so "refund" meets "refunds"), with sublinear
 * term frequency, signed buckets and L2 normalization. No model, no download, deterministic: texts
 * sharing words score higher by cosine. It is lexical, not semantic; real semantic models come in
 * through the OpenAI-compatible HTTP provider.
 */
export class OfflineHashEmbedder implements EmbeddingProvider {
  readonly model = 'offline-hash-v1';

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.embedOne(t));
  }

  embedOne(text: string): number[] {
    const features = new Map<string, number>();
    const add = (key: string, weight: number) => features.set(key, (features.get(key) ?? 0) + weight);
    const words = tokenize(text);
    words.forEach((word, i) => {
      const weight = STOPWORDS.has(word) ? 0.1 : 1;
      add(`w:${word}`, weight);
      if (i > 0) add(`b:${words[i - 1]} ${word}`, 0.5 * weight);
      if (word.length > 3 && !STOPWORDS.has(word)) {
        const padded = `^${word}$`;
        for (let j = 0; j + 3 <= padded.length; j++) add(`t:${padded.slice(j, j + 3)}`, 0.4);
      }
    });
    const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
    if (features.size === 0) {
      vector[0] = 1; // no words at all (e.g. "?"): a fixed unit vector rather than a zero one, which has no cosine
      return vector;
    }
    for (const [key, total] of features) {
      const h = fnv1a(key);
      const sign = (fnv1a(`s${key}`) & 1) === 0 ? 1 : -1;
      vector[h % EMBEDDING_DIMENSIONS] += sign * (total >= 1 ? 1 + Math.log(total) : total);
    }
    const unit = l2Normalize(vector);
    return unit.every((x) => x === 0) ? unit.map((_, i) => (i === 0 ? 1 : 0)) : unit.map((x) => Math.round(x * 1e7) / 1e7);
  }
}
