import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small OpenAI-compatible chat-completions server for tests of the AI agent (the model is the outer
 * boundary): `POST /v1/chat/completions`. In `answer` mode it plays a strict retrieval model: it reads
 * the numbered entries `[n] Q: … A: …` from the system prompt, picks the one sharing the most content
 * words with the user's message, and answers that entry's answer with `SOURCES: n` — or CANNOT_ANSWER
 * when none shares at least two. `error` answers 500, `hang` never answers, `unauthorized` 401.
 * Requests are recorded (headers and body) for assertions.
 */
export interface ChatModelServer {
  baseUrl: string;
  mode: 'answer' | 'error' | 'hang' | 'unauthorized';
  requests: Array<{
    headers: IncomingMessage['headers'];
    body: { model: string; messages: Array<{ role: string; content: string }> } & Record<string, unknown>;
  }>;
  stop(): Promise<void>;
}

const STOP = new Set(
  'a an and are as at be by can do does for from has have how i if in is it its me my of on or our so that the their there this to was we what when where which who why will with you your please hi hello'.split(
    ' ',
  ),
);
const words = (t: string) => new Set((t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w) && w.length > 2));

/** The fake model's reply to a system prompt and a customer message (exported for unit tests). */
export function scriptedReply(system: string, user: string): string {
  const entries = [...system.matchAll(/^\[(\d+)\] Q: (.*)\nA: ([\s\S]*?)(?=\n\n\[\d+\] Q: |\s*$)/gm)].map((m) => ({
    n: Number(m[1]),
    question: m[2],
    answer: m[3].trim(),
  }));
  const asked = words(user);
  let best: { n: number; answer: string; shared: number } | null = null;
  for (const e of entries) {
    const shared = [...words(e.question)].filter((w) => asked.has(w)).length;
    if (shared >= 2 && (!best || shared > best.shared)) best = { n: e.n, answer: e.answer, shared };
  }
  return best ? `${best.answer}\nSOURCES: ${best.n}` : 'CANNOT_ANSWER';
}

export async function startChatModelServer(): Promise<ChatModelServer> {
  const state: ChatModelServer = { baseUrl: '', mode: 'answer', requests: [], stop: async () => undefined };
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
        return void res.writeHead(404).end('{"error":{"message":"not found"}}');
      let body: ChatModelServer['requests'][number]['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return void res.writeHead(400).end('{"error":{"message":"bad json"}}');
      }
      state.requests.push({ headers: req.headers, body });
      if (state.mode === 'hang') return void hanging.add(res);
      if (state.mode === 'error')
        return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"model crashed"}}');
      if (state.mode === 'unauthorized')
        return void res
          .writeHead(401, { 'content-type': 'application/json' })
          .end(`{"error":{"message":"bad key ${String(req.headers.authorization ?? '')}"}}`);
      const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
      const user = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const content = scriptedReply(system, user);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-${state.requests.length}`,
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.stop = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
