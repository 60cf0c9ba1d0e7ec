import { startChatModelServer, type ChatModelServer } from '@mapi/testing';
import { ActionError } from '../engine/actions/action-context';
import { buildMessages, parseAnswer } from './agent-prompt';
import { ChatCompletionsClient, ModelUnavailableError } from './chat-completions.client';

describe('ChatCompletionsClient against an OpenAI-compatible server', () => {
  let model: ChatModelServer;
  const KEY = 'sk-test-secret-123';
  const client = (over: Partial<ConstructorParameters<typeof ChatCompletionsClient>[0]> = {}) =>
    new ChatCompletionsClient({
      baseUrl: `${model.baseUrl}/`,
      model: 'tiny',
      apiKey: KEY,
      timeoutMs: 2_000,
      maxTokens: 200,
      temperature: 0.2,
      ...over,
    });
  const messages = buildMessages(
    [{ question: 'What are your opening hours?', answer: 'We are open 9 to 5, Monday to Friday.' }],
    'What are the opening hours on Monday?',
  );

  beforeAll(async () => {
    model = await startChatModelServer();
  });
  afterAll(() => model.stop());
  beforeEach(() => {
    model.mode = 'answer';
    model.requests.length = 0;
  });

  it('posts {model, messages, max_tokens, temperature} with the bearer key and answers the content', async () => {
    const raw = await client().complete(messages);
    expect(parseAnswer(raw, 1)).toEqual({ kind: 'answer', text: 'We are open 9 to 5, Monday to Friday.', sources: [1] });
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(model.requests[0].body).toMatchObject({ model: 'tiny', max_tokens: 200, temperature: 0.2, stream: false, messages });
  });

  it('sends no Authorization header without a key', async () => {
    await client({ apiKey: undefined }).complete(messages);
    expect(model.requests[0].headers.authorization).toBeUndefined();
  });

  it('5xx and timeouts are ModelUnavailableError (retried); a 401 is an ActionError whose message never holds the key', async () => {
    model.mode = 'error';
    await expect(client().complete(messages)).rejects.toThrow(
      new ModelUnavailableError(`the model server (${model.baseUrl}/chat/completions) answered 500: {"error":{"message":"model crashed"}}`),
    );
    model.mode = 'hang';
    const started = Date.now();
    await expect(client({ timeoutMs: 300 }).complete(messages)).rejects.toThrow(/did not answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(1_500);
    model.mode = 'unauthorized';
    const refused = (await client()
      .complete(messages)
      .then(
        () => new Error('answered'),
        (e: Error) => e,
      )) as Error;
    expect(refused).toBeInstanceOf(ActionError);
    expect(refused.message).toMatch(/refused the request with 401/);
    expect(refused.message).toContain('[redacted]');
    expect(refused.message).not.toContain(KEY);
  });

  it('an unreachable server is ModelUnavailableError', async () => {
    await expect(client({ baseUrl: 'http://127.0.0.1:9/v1' }).complete(messages)).rejects.toBeInstanceOf(ModelUnavailableError);
  });
});
