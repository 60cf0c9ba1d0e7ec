import { OfflineHashEmbedder } from './offline-hash-embedder';

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('OfflineHashEmbedder', () => {
  const e = new OfflineHashEmbedder();

  it('gives 384-dimensional unit vectors', async () => {
    const [v] = await e.embed(['How do I get a refund?']);
    expect(v).toHaveLength(384);
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
  });

  it('is stable: the same text gives the same vector in every process and call', () => {
    const a = e.embedOne('Opening hours: nine to five');
    expect(e.embedOne('Opening hours: nine to five')).toEqual(a);
    // Pinned values: a change of the hashing would silently invalidate every stored vector.
    expect(a.filter((x) => x !== 0).length).toBeGreaterThan(10);
    expect(a.reduce((s, x) => s + x, 0)).toBeCloseTo(-1.7547315, 5);
  });

  it('ranks lexically similar text higher', () => {
    const q = e.embedOne('refund to my card');
    const refund = e.embedOne('How do I get a refund? Refunds are paid back to the card.');
    const shipping = e.embedOne('Do you ship abroad? We ship to every EU country.');
    expect(cosine(q, refund)).toBeGreaterThan(cosine(q, shipping) + 0.2);
  });

  it('matches word forms through character trigrams (refund ~ refunds)', () => {
    const a = e.embedOne('refunds');
    expect(cosine(a, e.embedOne('refund'))).toBeGreaterThan(0.3);
    expect(cosine(a, e.embedOne('weather'))).toBeLessThan(0.15);
  });

  it('ignores case and accents', () => {
    expect(e.embedOne('CAFÉ Opening')).toEqual(e.embedOne('café opening'));
    expect(e.embedOne('cafe opening')).toEqual(e.embedOne('café opening'));
  });

  it('gives text without words a fixed unit vector (never a zero vector, which has no cosine)', () => {
    const v = e.embedOne('?!');
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    expect(e.embedOne('')).toEqual(v);
  });
});
