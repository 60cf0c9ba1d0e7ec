import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { EmbeddingError } from './embedding-provider';
import { OpenAiCompatibleEmbedder, type OpenAiCompatibleOptions } from './openai-compatible-embedder';

interface Seen {
  auth: string | undefined;
  path: string | undefined;
  body: { model: string; input: string[]; dimensions?: number; encoding_format?: string };
}

/** A local server speaking the OpenAI embeddings protocol; `next` scripts the answers. */
describe('OpenAiCompatibleEmbedder against a local /v1/embeddings server', () => {
  let server: Server;
  let baseUrl: string;
  const seen: Seen[] = [];
  let script: Array<(req: Seen, res: ServerResponse) => void> = [];
  const vectorFor = (text: string, dims = 384) => Array.from({ length: dims }, (_, i) => ((text.length + i) % 7) - 3);
  const ok =
    (dims = 384) =>
    (req: Seen, res: ServerResponse) => {
      // Answer in reverse order: clients must use `index`, not position.
      const data = req.body.input.map((t, index) => ({ object: 'embedding', index, embedding: vectorFor(t, dims) })).reverse();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: req.body.model }));
    };
  const status =
    (code: number, headers: Record<string, string> = {}) =>
    (_req: Seen, res: ServerResponse) =>
      res.writeHead(code, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ error: { message: `status ${code}` } }));

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const s: Seen = { auth: req.headers.authorization, path: req.url, body: JSON.parse(raw) };
        seen.push(s);
        (script.shift() ?? ok())(s, res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  beforeEach(() => {
    seen.length = 0;
    script = [];
  });

  const embedder = (o: Partial<OpenAiCompatibleOptions> = {}) =>
    new OpenAiCompatibleEmbedder({
      baseUrl,
      model: 'text-embedding-3-small',
      apiKey: 'sk-test',
      sendDimensions: true,
      batchSize: 2,
      maxRetries: 2,
      retryBaseMs: 10,
      timeoutMs: 2_000,
      ...o,
    });

  it('posts model, input, dimensions and the key to /embeddings, in batches, and orders vectors by index', async () => {
    const vectors = await embedder().embed(['a', 'bb', 'ccc']);
    expect(seen.map((s) => s.body.input)).toEqual([['a', 'bb'], ['ccc']]);
    expect(seen[0]).toMatchObject({
      auth: 'Bearer sk-test',
      path: '/v1/embeddings',
      body: { model: 'text-embedding-3-small', dimensions: 384, encoding_format: 'float' },
    });
    expect(vectors).toHaveLength(3);
    const norm = Math.hypot(...vectorFor('bb'));
    expect(vectors[1][0]).toBeCloseTo(vectorFor('bb')[0] / norm, 10);
    expect(Math.hypot(...vectors[2])).toBeCloseTo(1, 10);
    expect(embedder().model).toBe('openai:text-embedding-3-small');
  });

  it('leaves out dimensions and the key when not configured', async () => {
    await embedder({ sendDimensions: false, apiKey: undefined }).embed(['x']);
    expect(seen[0].auth).toBeUndefined();
    expect(seen[0].body.dimensions).toBeUndefined();
  });

  it('retries 5xx and 429 (honouring Retry-After) and then succeeds', async () => {
    script = [status(503), status(429, { 'retry-after': '0' }), ok()];
    const [v] = await embedder().embed(['x']);
    expect(v).toHaveLength(384);
    expect(seen).toHaveLength(3);
  });

  it("gives up after maxRetries with the provider's status in the error, retryable", async () => {
    script = [status(500), status(500), status(500), ok()];
    const error = await embedder()
      .embed(['x'])
      .catch((e) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect(error.message).toMatch(/answered 500/);
    expect(error.retryable).toBe(true);
    expect(seen).toHaveLength(3);
  });

  it('does not retry a 401', async () => {
    script = [status(401)];
    const error = await embedder()
      .embed(['x'])
      .catch((e) => e);
    expect(error).toMatchObject({ retryable: false, message: expect.stringMatching(/answered 401/) });
    expect(seen).toHaveLength(1);
  });

  it('refuses vectors of another dimension, saying how to fix it', async () => {
    script = [ok(768)];
    const error = await embedder()
      .embed(['x'])
      .catch((e) => e);
    expect(error).toMatchObject({ retryable: false });
    expect(error.message).toMatch(/768-dimensional vectors; 384 are required/);
  });

  it('treats a server that does not answer in time as retryable', async () => {
    script = [() => undefined, () => undefined];
    const error = await embedder({ timeoutMs: 100, maxRetries: 1 })
      .embed(['x'])
      .catch((e) => e);
    expect(error).toMatchObject({ retryable: true, message: expect.stringMatching(/unreachable/) });
    expect(seen).toHaveLength(2);
  });

  it('treats an unreachable server as retryable', async () => {
    const error = await embedder({ baseUrl: 'http://127.0.0.1:1/v1', maxRetries: 0 })
      .embed(['x'])
      .catch((e) => e);
    expect(error).toMatchObject({ retryable: true });
  });
});
