export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatCompletionsOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  maxTokens: number;
  temperature: number;
}

/** The model server could not be reached, was too slow, or answered 5xx / 429: worth asking again later. */
export class ModelUnavailableError extends Error {}

/** The model server refused the request (another 4xx) or answered something that is not a completion: asking again will not help. */
export class ModelRefusedError extends Error {}

/**
 * An OpenAI-compatible `POST {base}/chat/completions` (OpenAI, Ollama, vLLM, llama.cpp, LM Studio, …):
 * one non-streamed completion, answered as its text. Unreachable, timed out, 5xx or 429 → ModelUnavailableError;
 * another 4xx or an answer without `choices[0].message.content` → ModelRefusedError. Shared by the AI agent
 * (automation) and message flagging (analytics). The API key goes only into the Authorization header: error
 * messages name the server's URL and status and a short, key-scrubbed excerpt of its body.
 */
export class ChatCompletionsClient {
  constructor(private readonly options: ChatCompletionsOptions) {}

  get model(): string {
    return this.options.model;
  }

  get url(): string {
    return `${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  async complete(messages: ChatMessage[]): Promise<string> {
    const o = this.options;
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}) },
        body: JSON.stringify({ model: o.model, messages, max_tokens: o.maxTokens, temperature: o.temperature, stream: false }),
        signal: AbortSignal.timeout(o.timeoutMs),
      });
    } catch (err) {
      const e = err as Error;
      if (e.name === 'TimeoutError' || e.name === 'AbortError')
        throw new ModelUnavailableError(`the model server (${this.url}) did not answer within ${o.timeoutMs} ms`);
      throw new ModelUnavailableError(
        `the model server (${this.url}) could not be reached: ${this.scrub((e.cause as Error | undefined)?.message ?? e.message)}`,
      );
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw new ModelUnavailableError(`the model server (${this.url}) broke off its answer: ${this.scrub((err as Error).message)}`);
    }
    if (res.status >= 500 || res.status === 429)
      throw new ModelUnavailableError(`the model server (${this.url}) answered ${res.status}: ${this.excerpt(text)}`);
    if (!res.ok)
      throw new ModelRefusedError(`the model server (${this.url}) refused the request with ${res.status}: ${this.excerpt(text)}`);
    let content: unknown;
    try {
      content = (JSON.parse(text) as { choices?: Array<{ message?: { content?: unknown } }> }).choices?.[0]?.message?.content;
    } catch {
      throw new ModelRefusedError(`the model server (${this.url}) answered something that is not JSON: ${this.excerpt(text)}`);
    }
    if (typeof content !== 'string')
      throw new ModelRefusedError(`the model server (${this.url}) answered no choices[0].message.content: ${this.excerpt(text)}`);
    return content;
  }

  private excerpt(text: string): string {
    const flat = text.replace(/\s+/g, ' ').trim();
    return this.scrub(flat.length > 300 ? `${flat.slice(0, 300)}…` : flat || '(empty body)');
  }

  /** Never let the key into a message, whatever a server echoes. */
  private scrub(text: string): string {
    const key = this.options.apiKey;
    return key ? text.split(key).join('[redacted]') : text;
  }
}
