import { MessageSchema } from '../chats/message/message.schema';
import { ROUTES } from '../routes';
import { buildOpenApi } from './build-openapi';

type Json = Record<string, any>;

const doc = buildOpenApi(ROUTES, { serverUrl: 'http://localhost:8080/v1', version: '1.0.0' }) as Json;
const listMessages = doc.paths['/chats/{chat_id}/messages']?.get as Json;
const param = (name: string) => (listMessages.parameters as Json[]).find((p) => p.name === name) as Json;

describe('buildOpenApi with the real routes', () => {
  it('is an OpenAPI 3.1.0 document with the server and bearer security', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([{ url: 'http://localhost:8080/v1' }]);
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
  });

  it('has GET /chats/{chat_id}/messages with an operationId', () => {
    expect(listMessages).toBeDefined();
    expect(listMessages.operationId).toEqual(expect.any(String));
    expect(listMessages.operationId.length).toBeGreaterThan(0);
  });

  it('gives every operation a distinct operationId', () => {
    const ids = Object.values(doc.paths as Json).flatMap((ops) => Object.values(ops as Json).map((op) => (op as Json).operationId));
    expect(ids.length).toBe(ROUTES.length);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares chat_id as a required string path parameter (spec 4.1)', () => {
    expect(param('chat_id')).toMatchObject({ in: 'path', required: true });
    expect(param('chat_id').schema.type).toBe('string');
  });

  it('declares offset and limit as optional query parameters with their defaults', () => {
    expect(param('offset')).toMatchObject({ in: 'query', required: false, schema: { default: 0 } });
    expect(param('limit')).toMatchObject({ in: 'query', required: false, schema: { default: 2000, maximum: 2000 } });
  });

  it('declares the optional x-phone header', () => {
    expect(param('x-phone')).toMatchObject({ in: 'header', required: false, schema: { type: 'string' } });
  });

  it('describes the 200 response with from/to/count and every field of the message object', () => {
    const schema = listMessages.responses['200'].content['application/json'].schema as Json;
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['from', 'to', 'count', 'messages']));
    const message = schema.properties.messages.items as Json;
    expect(Object.keys(message.properties).sort()).toEqual(Object.keys(MessageSchema.shape).sort());
    expect(message.additionalProperties).toBe(false);
  });

  it('points the error responses at the Error component', () => {
    for (const status of ['401', '422', '429', '500']) {
      expect(listMessages.responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    }
    const error = doc.components.schemas.Error as Json;
    expect(Object.keys(error.properties)).toEqual(expect.arrayContaining(['code', 'message', 'status', 'fields']));
    expect(error.properties.code.enum).toEqual(
      expect.arrayContaining(['ERROR', 'UNAUTHORIZED_ERROR', 'VALIDATION_ERROR', 'RATE_LIMIT_ERROR', 'UNKNOWN_ERROR']),
    );
  });

  it('resolves every $ref inside the document', () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.push(value);
          else walk(value);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref.startsWith('#/')).toBe(true);
      const target = ref
        .slice(2)
        .split('/')
        .reduce<unknown>((node, part) => (node as Json | undefined)?.[part], doc);
      expect(target).toBeDefined();
    }
  });

  it('is JSON-serializable without loss', () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });
});
