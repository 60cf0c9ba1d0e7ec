export interface TextChunk {
  question: string;
  answer: string;
  source: 'qa' | 'paragraph' | 'text';
  tokenCount: number;
}

/** Target and limits of a chunk, in characters. */
const TARGET = 1_200;
const MAX = 2_000;
const WINDOW = 1_000;
const OVERLAP = 100;
const HEADING_MAX = 120;

/** Approximate tokens: about four characters per token for English text (OpenAI's rule of thumb). */
export const estimateTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

const QUESTION = /^\s*(?:\*\*)?(?:Q|Question)\s*\d*\s*[:.)-]\s*(?:\*\*)?\s*(.+)$/i;
const ANSWER = /^\s*(?:\*\*)?(?:A|Answer)\s*\d*\s*[:.)-]\s*(?:\*\*)?\s*(.*)$/i;
const HEADING = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/;

/**
 * Splits extracted text into chunks: question/answer pairs where the text has them ("Q:/A:",
 * "Question:/Answer:", or a Markdown heading ending in "?" followed by its text), else paragraphs
 * (blank-line separated, short ones merged up to ~1200 characters, each headed by the Markdown
 * heading above it or its first sentence), else fixed windows of 1000 characters.
 */
export function chunkText(text: string): TextChunk[] {
  const qa = qaPairs(text);
  if (qa.length > 0) return qa;
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (paragraphs.length > 1) return paragraphChunks(paragraphs);
  return windows(text).map((w, i) => chunk(`${firstSentence(w)} (part ${i + 1})`, w, 'text'));
}

function chunk(question: string, answer: string, source: TextChunk['source']): TextChunk {
  return { question: question.slice(0, HEADING_MAX), answer, source, tokenCount: estimateTokens(answer) };
}

function qaPairs(text: string): TextChunk[] {
  const lines = text.split('\n');
  const pairs: Array<{ q: string; a: string[] }> = [];
  let current: { q: string; a: string[] } | null = null;
  let inAnswer = false;
  for (const line of lines) {
    const q = QUESTION.exec(line);
    const h = HEADING.exec(line);
    if (q || (h && h[1].trim().endsWith('?'))) {
      current = { q: (q ? q[1] : (h?.[1] ?? '')).trim(), a: [] };
      pairs.push(current);
      inAnswer = !q; // a "?" heading is followed directly by its answer
      continue;
    }
    if (h) {
      current = null;
      continue;
    }
    const a = ANSWER.exec(line);
    if (current && a && !inAnswer) {
      inAnswer = true;
      if (a[1].trim()) current.a.push(a[1].trim());
      continue;
    }
    if (current) current.a.push(line);
  }
  const complete = pairs.map((p) => ({ q: p.q, a: p.a.join('\n').trim() })).filter((p) => p.q && p.a);
  // A document that merely mentions "Q:" once is not an FAQ: require at least two pairs.
  if (complete.length < 2) return [];
  return complete.flatMap((p) => (p.a.length <= MAX ? [chunk(p.q, p.a, 'qa')] : windows(p.a).map((w) => chunk(p.q, w, 'qa'))));
}

function paragraphChunks(paragraphs: string[]): TextChunk[] {
  const out: TextChunk[] = [];
  let heading: string | null = null;
  let buffer: string[] = [];
  let bufferHeading: string | null = null;
  const flush = () => {
    const body = buffer.join('\n\n').trim();
    if (body) {
      const parts = body.length <= MAX ? [body] : windows(body);
      for (const part of parts) out.push(chunk(bufferHeading ?? firstSentence(part), part, 'paragraph'));
    }
    buffer = [];
  };
  for (const paragraph of paragraphs) {
    const lines = paragraph.split('\n');
    const h = HEADING.exec(lines[0]);
    if (h) {
      flush();
      heading = h[1].trim();
      const rest = lines.slice(1).join('\n').trim();
      bufferHeading = heading;
      if (rest) buffer.push(rest);
      continue;
    }
    if (buffer.length > 0 && buffer.join('\n\n').length + paragraph.length > TARGET) flush();
    if (buffer.length === 0) bufferHeading = heading;
    buffer.push(paragraph);
  }
  flush();
  return out;
}

/** Fixed windows of ~1000 characters, overlapping by 100, cut at whitespace where possible. */
export function windows(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + WINDOW);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      if (space > start + WINDOW / 2) end = space;
    }
    out.push(text.slice(start, end).trim());
    if (end >= text.length) break;
    start = Math.max(end - OVERLAP, start + 1);
  }
  return out.filter(Boolean);
}

function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const m = /^(.{10,}?[.!?])(\s|$)/.exec(flat);
  const sentence = m ? m[1] : flat;
  return sentence.length > 80 ? `${sentence.slice(0, 77).trimEnd()}...` : sentence;
}
