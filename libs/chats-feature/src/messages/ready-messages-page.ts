import { ReadyJson, pagePositions } from '@mapi/contracts';
import { jsonArrayBytes } from '@mapi/platform';

/**
 * Pages asked with a limit over this come from Postgres already written as JSON.stringify writes the
 * spec's message objects (message-api-sql.ts, mapMessage's SQL twin), answered as readyMessagesPage —
 * neither revived, mapped, parsed nor stringified in the service (docs/decisions.md). Smaller ones
 * are read as stored rows and mapped: there Postgres's longer statement (53 expressions parsed and
 * planned per query) costs as much as the mapping it saves
 * (docs/benchmarks.md, "GET messages: gateway vs raw driver"). GET messages and GET /chats/messages both follow it.
 */
export const SQL_BUILT_PAGES_FROM = 100;

/**
 * A page of messages `{ from, to, count, messages }` from the messages' JSON texts, as the bytes
 * JSON.stringify writes for it (the same keys in the same order, no spaces), written into one buffer
 * by jsonArrayBytes: no 3 MB string is built for a 2000-message page.
 */
export function readyMessagesPage<T>(offset: number, texts: readonly string[]): ReadyJson<T> {
  const { from, to, count } = pagePositions(offset, texts.length);
  return new ReadyJson<T>(jsonArrayBytes(`{"from":${from},"to":${to},"count":${count},"messages":[`, texts, ']}'));
}
