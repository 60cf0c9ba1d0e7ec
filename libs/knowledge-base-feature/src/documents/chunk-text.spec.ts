import { chunkText, estimateTokens, windows } from './chunk-text';

describe('chunkText', () => {
  it('makes question/answer pairs of a Q:/A: text, answers spanning lines', () => {
    const text = 'Shop FAQ\n\nQ: Do you ship abroad?\nA: Yes, to the EU.\nAnd to Norway.\n\nQ: Can I pay by card?\nA: Visa and Mastercard.';
    expect(chunkText(text)).toEqual([
      {
        question: 'Do you ship abroad?',
        answer: 'Yes, to the EU.\nAnd to Norway.',
        source: 'qa',
        tokenCount: estimateTokens('Yes, to the EU.\nAnd to Norway.'),
      },
      { question: 'Can I pay by card?', answer: 'Visa and Mastercard.', source: 'qa', tokenCount: 5 },
    ]);
  });

  it('reads Markdown headings ending in "?" as questions, and Question:/Answer: forms', () => {
    const md = '# FAQ\n\n## How long is delivery?\nTwo days.\n\n## Is there a warranty?\nTwo years on everything.';
    expect(chunkText(md).map((c) => [c.question, c.answer, c.source])).toEqual([
      ['How long is delivery?', 'Two days.', 'qa'],
      ['Is there a warranty?', 'Two years on everything.', 'qa'],
    ]);
    const long = 'Question 1: Who are you?\nAnswer: A bakery.\nQuestion 2: Where?\nAnswer: Lisbon.';
    expect(chunkText(long).map((c) => c.question)).toEqual(['Who are you?', 'Where?']);
  });

  it('does not take a single Q: line for an FAQ', () => {
    expect(chunkText('Q: one?\nA: yes.\n\nThe rest of a long text.').every((c) => c.source === 'paragraph')).toBe(true);
  });

  it('splits other text into paragraphs, merging short ones, headed by the Markdown heading above them', () => {
    const md = '# Returns\n\nItems can be returned within 30 days.\n\nThey must be unused.\n\n# Delivery\n\nWe deliver on weekdays.';
    const chunks = chunkText(md);
    expect(chunks.map((c) => [c.question, c.answer, c.source])).toEqual([
      ['Returns', 'Items can be returned within 30 days.\n\nThey must be unused.', 'paragraph'],
      ['Delivery', 'We deliver on weekdays.', 'paragraph'],
    ]);
  });

  it('heads a paragraph without heading by its first sentence', () => {
    const chunks = chunkText(`Our shop opens at nine. It closes at five.\n\n${'Long paragraph text here. '.repeat(60)}`);
    expect(chunks[0].question).toBe('Our shop opens at nine.');
    expect(chunks.length).toBe(2);
  });

  it('cuts text without paragraphs into ~1000-character windows that overlap', () => {
    const text = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.every((c) => c.source === 'text' && c.answer.length <= 1000)).toBe(true);
    expect(chunks[0].question).toMatch(/\(part 1\)$/);
    const firstEnd = chunks[0].answer.split(' ').pop()!;
    expect(chunks[1].answer.includes(firstEnd)).toBe(true);
  });

  it('windows() covers the whole text', () => {
    const text = 'x'.repeat(2500);
    const parts = windows(text);
    expect(parts.map((p) => p.length)).toEqual([1000, 1000, 700]);
  });
});
