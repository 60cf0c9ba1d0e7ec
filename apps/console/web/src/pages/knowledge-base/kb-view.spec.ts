import type { KbEntry } from '../../api/types';
import { groupDocuments, questionEntries, scoreText, searchable } from './kb-view';

const entry = (over: Partial<KbEntry>): KbEntry => ({
  context_id: Math.random().toString(36),
  question: 'q',
  answer: 'a',
  type: 'faq',
  embedding: null,
  document_id: null,
  is_active: true,
  metadata: null,
  created_at: '2026-01-01T00:00:00Z',
  ...over,
});

describe('console knowledge-base page logic', () => {
  it('gathers document chunks per document, counting the active ones', () => {
    const entries = [
      entry({ type: 'document', document_id: 'd1', metadata: { fileName: 'guide.md' } }),
      entry({ type: 'faq' }),
      entry({ type: 'document', document_id: 'd1', metadata: { fileName: 'guide.md' }, is_active: false }),
      entry({ type: 'document', document_id: 'd2', metadata: { fileName: 'terms.pdf' } }),
    ];
    expect(
      groupDocuments(entries).map(({ document_id, file_name, chunks, active }) => ({ document_id, file_name, chunks, active })),
    ).toEqual([
      { document_id: 'd1', file_name: 'guide.md', chunks: 2, active: 1 },
      { document_id: 'd2', file_name: 'terms.pdf', chunks: 1, active: 1 },
    ]);
    expect(questionEntries([...entries, entry({ type: 'self-learned' })]).map((e) => e.type)).toEqual(['faq', 'self-learned']);
  });
  it('says whether search can find an entry yet, and shows scores as percentages', () => {
    expect(searchable({ embedding: null })).toBe('pending');
    expect(searchable({ embedding: '[0.1]' })).toBe('ready');
    expect(scoreText(0.876)).toBe('88%');
  });
});
