import { SearchKbRpc, type RequestContext } from '@mapi/contracts';
import type { RpcCaller } from '../engine/actions/action-context';

export interface RetrievedEntry {
  context_id: string;
  type: string;
  question: string;
  answer: string;
  score: number;
}

/**
 * The organization's active knowledge-base entries nearest the message, through the knowledge-base
 * service's search RPC (the same search as POST /knowledge-base/search): `close` are those at or above
 * `minScore` (best first, at most `k`), `nearest` every hit with its score (for the run log).
 */
export async function retrieve(
  rpc: RpcCaller,
  ctx: RequestContext,
  text: string,
  k: number,
  minScore: number,
): Promise<{ close: RetrievedEntry[]; nearest: Array<{ context_id: string; score: number }> }> {
  const found = await rpc.call(SearchKbRpc, { ctx, body: { query: text.slice(0, 8_000), k, is_active: true } });
  const hits = found.data
    .filter((e) => e.is_active)
    .map((e) => ({ context_id: e.context_id, type: e.type, question: e.question ?? '', answer: e.answer ?? '', score: e.score }));
  return { close: hits.filter((h) => h.score >= minScore), nearest: hits.map((h) => ({ context_id: h.context_id, score: h.score })) };
}
