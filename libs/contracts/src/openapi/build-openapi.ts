import { z } from 'zod';
import { ErrorEnvelopeSchema } from '../errors/error-codes';
import { eventEnvelopeSchema, type EventDefinition } from '../events/define-event';
import { EVENTS } from '../events/registry';
import type { RouteContract } from '../http/define-route';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
};

function parametersOf(route: RouteContract): JsonSchema[] {
  const out: JsonSchema[] = [];
  const add = (where: 'path' | 'query', obj?: z.ZodObject) => {
    if (!obj) return;
    // Path params as received (their normalizing transforms have no JSON Schema); query params after
    // coercion, so their defaults show.
    const json = toSchema(obj, where === 'path' ? 'input' : 'output') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: where, required: where === 'path' || ((json.required ?? []).includes(name) && !('default' in schema)), schema });
    }
  };
  add('path', route.params);
  add('query', route.query);
  if (route.phone !== 'none') {
    out.push({
      name: 'x-phone',
      in: 'header',
      required: route.phone === 'required',
      description: 'Phone digits (country code + number) or phone_id. A phone outside the token scope gives 401.',
      schema: { type: 'string', minLength: 1 },
    });
  }
  return out;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ERROR_REF } },
});

/** The route's own failure bodies (`errorBodies`): beside the envelope where the gateway may answer that status too. */
function withErrorBodies(route: RouteContract, responses: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const out = { ...responses };
  for (const [status, { description, schema }] of Object.entries(route.errorBodies ?? {})) {
    const own = toSchema(schema, 'output');
    const envelope = out[status];
    out[status] = {
      description: envelope ? `${String(envelope.description)}; or ${description}` : description,
      content: { 'application/json': { schema: envelope ? { oneOf: [ERROR_REF, own] } : own } },
    };
  }
  return out;
}

/**
 * One entry of the document's `webhooks`: what a subscription to the event receives, a POST of the
 * envelope whose `data` is the event's payload (the same object realtime clients get).
 */
function webhookOf(event: EventDefinition): JsonSchema {
  return {
    post: {
      operationId: `event_${event.name.replace(/\W/g, '_')}`,
      tags: ['events'],
      summary: event.summary,
      description:
        `Delivered to the subscriptions of \`${event.name}\` (signed: webhook-id, webhook-timestamp, webhook-signature) and ` +
        `emitted to realtime clients under that name with \`data\` as the payload. Published on \`<namespace>.${event.subject}\`.`,
      requestBody: { required: true, content: { 'application/json': { schema: toSchema(eventEnvelopeSchema(event), 'output') } } },
      responses: { '2XX': { description: 'Received. Any other answer, or none within the timeout, is retried.' } },
    },
  };
}

/** OpenAPI 3.1 document generated from the route contracts and the event registry (served at GET /v1/openapi.json). */
export function buildOpenApi(
  routes: readonly RouteContract[],
  options: { serverUrl: string; version: string; events?: readonly EventDefinition[] },
): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const operation: Record<string, unknown> = {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      parameters: parametersOf(route),
      responses: withErrorBodies(route, {
        [String(route.successStatus)]: route.response
          ? {
              description: route.csv ? 'Success (CSV with `Accept: text/csv`)' : 'Success',
              content: route.text
                ? { 'text/plain': { schema: { type: 'string' } } }
                : {
                    'application/json': { schema: toSchema(route.response, 'output') },
                    ...(route.csv ? { 'text/csv': { schema: { type: 'string' } } } : {}),
                  },
            }
          : { description: 'Success, no content' },
        ...(route.phone !== 'none' ? { '400': errorResponse('ERROR: the phone is disconnected or unreachable') } : {}),
        '401': errorResponse('UNAUTHORIZED_ERROR: invalid token, or a phone outside the token scope'),
        '422': errorResponse('VALIDATION_ERROR'),
        '429': errorResponse('RATE_LIMIT_ERROR'),
        '500': errorResponse('UNKNOWN_ERROR'),
      }),
    };
    // Console routes: sign-in needs nobody signed in; sign-out and me take the session cookie only.
    if (route.auth === 'public') operation.security = [];
    else if (route.auth === 'session') operation.security = [{ session: [] }];
    else operation.security = [{ bearer: [] }, { session: [] }];
    if (route.body) {
      // Not required where the contract takes an absent body (an empty body means "no body", docs/decisions.md).
      const required = !route.body.safeParse(undefined).success;
      operation.requestBody = { required, content: { 'application/json': { schema: toSchema(route.body, 'input') } } };
    }
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Messaging Automation API', version: options.version },
    servers: [{ url: options.serverUrl }],
    security: [{ bearer: [] }],
    paths,
    webhooks: Object.fromEntries((options.events ?? Object.values(EVENTS)).map((e) => [e.name, webhookOf(e)])),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'mapi_session',
          description: 'A console session (POST /auth/sign-in). POST, PUT, PATCH and DELETE also need the x-csrf-token header.',
        },
      },
      schemas: { Error: toSchema(ErrorEnvelopeSchema, 'output') },
    },
  };
}
