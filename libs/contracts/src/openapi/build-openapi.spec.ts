import { MessageSchema } from '../chats/message/message.schema';
import { EVENT_NAMES } from '../events/event-names';
import { ChatSchema } from '../events/chat/chat.schema';
import { PhoneSchema } from '../phones/phone/phone.schema';
import { ROUTES } from '../routes';
import { WebhookSubscriptionSchema } from '../webhooks/subscription/subscription.schema';
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

  it('marks a request body required only where the route refuses an absent one', () => {
    expect(doc.paths['/knowledge-base/faq/create'].post.requestBody.required).toBe(true);
    expect(doc.paths['/phones/create'].post.requestBody.required).toBe(false);
    expect(doc.paths['/message/queues/purge'].post.requestBody.required).toBe(false);
  });

  it("documents media migration's `{ error }` failure bodies (spec 7): 403 alone, 422 beside the envelope", () => {
    const responses = doc.paths['/media/migrate-url'].post.responses;
    const errorBody = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] };
    expect(responses['403'].content['application/json'].schema).toMatchObject(errorBody);
    expect(responses['422'].content['application/json'].schema.oneOf).toEqual([
      { $ref: '#/components/schemas/Error' },
      expect.objectContaining(errorBody),
    ]);
    expect(doc.paths['/media/migrate-url/batch'].post.responses['403']).toBeUndefined();
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

describe('buildOpenApi: the event catalogue as OpenAPI 3.1 webhooks', () => {
  const body = (name: string) => doc.webhooks[name]?.post?.requestBody?.content?.['application/json']?.schema as Json;
  const keysOf = (schema: Json) => Object.keys(schema.properties).sort();

  it('has one webhook per catalogue event, a POST with a distinct operationId', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_NAMES].sort());
    const ids = Object.values(doc.webhooks as Json).map((w) => (w as Json).post.operationId);
    const routeIds = Object.values(doc.paths as Json).flatMap((ops) => Object.values(ops as Json).map((op) => (op as Json).operationId));
    expect(new Set([...ids, ...routeIds]).size).toBe(ids.length + routeIds.length);
    for (const name of EVENT_NAMES) {
      expect(doc.webhooks[name].post.summary.length).toBeGreaterThan(0);
      expect(doc.webhooks[name].post.description).toContain(`events.v1.${name}`);
    }
  });

  it("describes the delivered body: the hosted service's envelope with the event's name, its payload as data, our fields beside it", () => {
    for (const name of EVENT_NAMES) {
      const schema = body(name);
      expect(keysOf(schema)).toEqual([
        'created_at',
        'data',
        'event',
        'event_id',
        'event_type',
        'org_id',
        'phone_id',
        'previous_attributes',
        'timestamp',
      ]);
      expect(schema.properties.event.const).toBe(name);
      expect(schema.properties.event_type.const).toBe(name);
      expect(schema.required).toEqual(
        expect.arrayContaining([
          'event',
          'data',
          'org_id',
          'previous_attributes',
          'timestamp',
          'event_id',
          'event_type',
          'phone_id',
          'created_at',
        ]),
      );
    }
  });

  it('gives message events the spec 2.1 message, phone events the phone object, chat.created the chat, the disabling the subscription', () => {
    expect(keysOf(body('message.created').properties.data)).toEqual(Object.keys(MessageSchema.shape).sort());
    expect(keysOf(body('message.ack.updated').properties.data)).toEqual(Object.keys(MessageSchema.shape).sort());
    expect(body('message.created').properties.data.additionalProperties).toBe(false);
    expect(keysOf(body('org.phone.qr').properties.data)).toEqual(Object.keys(PhoneSchema.shape).sort());
    expect(keysOf(body('chat.created').properties.data)).toEqual(Object.keys(ChatSchema.shape).sort());
    expect(keysOf(body('webhook.subscription.disabled').properties.data)).toEqual(
      [...Object.keys(WebhookSubscriptionSchema.shape), 'reason', 'failing_since', 'disabled_at'].sort(),
    );
  });
});
