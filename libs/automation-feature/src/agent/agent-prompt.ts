import type { ChatMessage } from './chat-completions.client';

/** An entry the model is given, numbered from 1 in the prompt. */
export interface PromptEntry {
  question: string;
  answer: string;
}

/** What the model must answer when the entries do not answer the message. */
export const CANNOT_ANSWER = 'CANNOT_ANSWER';

/**
 * The agent's protocol with the model (plain text, so any chat model and server works — no JSON mode
 * or tools needed): answer only from the numbered entries and end with `SOURCES: <numbers>`, or answer
 * exactly CANNOT_ANSWER. The organization's `query` adds instructions (tone, name, language); the
 * customer's message is the user turn, kept apart from the instructions.
 */
export function buildMessages(entries: PromptEntry[], customerMessage: string, instructions?: string): ChatMessage[] {
  const numbered = entries.map((e, i) => `[${i + 1}] Q: ${e.question.trim()}\nA: ${e.answer.trim()}`).join('\n\n');
  const system = [
    "You are this organization's customer-support assistant, answering a customer's chat message.",
    'Answer ONLY from the knowledge-base entries below. Do not use any other knowledge and do not invent facts, prices, dates, links or promises.',
    `If the entries do not answer the customer's message, reply with exactly ${CANNOT_ANSWER} and nothing else.`,
    'Otherwise reply with the message to send to the customer (short, plain text, in the language the customer wrote in), ' +
      'then, on a last line of its own, SOURCES: followed by the numbers of the entries you used, separated by commas (for example: SOURCES: 1, 3).',
    ...(instructions?.trim() ? [`Instructions from the organization (they never override the rules above): ${instructions.trim()}`] : []),
    '',
    'Knowledge-base entries:',
    numbered,
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: customerMessage },
  ];
}

/** The model's answer read by the protocol: a reply citing entries (1-based), or a hand-over and why. */
export type ParsedAnswer = { kind: 'answer'; text: string; sources: number[] } | { kind: 'cannot_answer'; reason: string };

const SOURCES_LINE = /^[\s*_#>-]*sources?[\s*_]*:[\s*_]*(.*?)[\s*_]*$/i;

/**
 * Reads a model's answer: reasoning blocks (`<think>…</think>`) dropped; CANNOT_ANSWER anywhere, an
 * empty answer, no SOURCES line, or sources naming no entry it was given → cannot answer (hand-over,
 * with the reason). Otherwise the text without the SOURCES line and without inline `[n]` markers, and
 * the cited entry numbers (only those given, each once, in order).
 */
export function parseAnswer(raw: string, entryCount: number): ParsedAnswer {
  const text = raw
    .replace(/<think>[\s\S]*?<\/think>/gi, '')
    .replace(/^[\s\S]*<\/think>/i, '')
    .trim();
  if (!text) return { kind: 'cannot_answer', reason: 'the model answered nothing' };
  if (new RegExp(`\\b${CANNOT_ANSWER}\\b`, 'i').test(text))
    return { kind: 'cannot_answer', reason: 'the model said the knowledge base does not answer the message' };
  const lines = text.split(/\r?\n/);
  let at = -1;
  for (let i = lines.length - 1; i >= 0; i--)
    if (SOURCES_LINE.test(lines[i])) {
      at = i;
      break;
    }
  if (at < 0) return { kind: 'cannot_answer', reason: 'the model cited no knowledge-base entry (no SOURCES line)' };
  const cited = [...(SOURCES_LINE.exec(lines[at])?.[1] ?? '').matchAll(/\d+/g)].map((m) => Number(m[0]));
  const sources = [...new Set(cited.filter((n) => n >= 1 && n <= entryCount))];
  if (!sources.length)
    return { kind: 'cannot_answer', reason: `the model cited no entry it was given (SOURCES: ${cited.join(', ') || 'none'})` };
  const reply = lines
    .filter((_, i) => i !== at)
    .join('\n')
    .replace(/[ \t]*\[\d+(?:\s*,\s*\d+)*\]/g, '')
    .trim();
  if (!reply) return { kind: 'cannot_answer', reason: 'the model gave sources but no answer' };
  return { kind: 'answer', text: reply, sources };
}
