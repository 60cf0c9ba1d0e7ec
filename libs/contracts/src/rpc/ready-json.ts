/**
 * A service answer whose JSON the use case already holds, as text or UTF-8 bytes (a page Postgres
 * built): the RPC server sends it as it is, without JSON.stringify, and the gateway passes it on as
 * it passes every answer. `T` is the response the JSON stands for, so a use case's answer is still
 * typed by its contract; with the server's `validateReplies` (tests) the JSON is parsed and checked
 * against the contract as any other answer. Its status is the route's success status.
 *
 * The use case owns the promise that the JSON is what JSON.stringify would have written for the
 * same value: clients see these bytes unchanged.
 */
export class ReadyJson<T = unknown> {
  /** Brands the class by its response type (never set; a ReadyJson<A> is not a ReadyJson<B>). */
  declare readonly response?: T;

  constructor(readonly json: string | Uint8Array) {}

  /** The value the JSON stands for (for checks: parses it every call). */
  parse(): T {
    const text = typeof this.json === 'string' ? this.json : new TextDecoder().decode(this.json);
    return JSON.parse(text) as T;
  }
}

/** What a use case's answer stands for, whether given as a value or as ReadyJson (for callers in-process: tests, benches). */
export function answerValue<T>(answer: T | ReadyJson<T>): T {
  return answer instanceof ReadyJson ? answer.parse() : answer;
}
