import { ErrorEnvelopeSchema } from '@mapi/contracts';
import type { GeneratedCase, Operation } from './generated-requests';
import { conforms, type JsonSchema } from './json-schema-values';

export interface Answered {
  status: number;
  text: string;
  ms: number;
}

const ERROR_REF = '#/components/schemas/Error';

/** The body schemas the operation documents for `status`, besides the error envelope (e.g. media's `{ error }`). */
function documentedOtherBodies(op: Operation, status: number): JsonSchema[] {
  const schema: JsonSchema | undefined = op.responses[String(status)]?.content?.['application/json']?.schema;
  if (!schema) return [];
  const options: JsonSchema[] = schema.oneOf ?? schema.anyOf ?? [schema];
  return options.filter((s) => s.$ref !== ERROR_REF);
}

/**
 * What is wrong with one answer, or undefined: no 5xx (unless the operation documents that status,
 * and never 500), a 4xx for an input that breaks the schema, no data of another organization, and
 * every 4xx body the spec's envelope with the answer's status, or a body the operation documents.
 */
export function problemOf(op: Operation, c: GeneratedCase, answer: Answered, foreignSecrets: readonly string[]): string | undefined {
  const { status, text } = answer;
  if (status >= 500 && (status === 500 || !op.responses[String(status)])) return `answered ${status}: ${text.slice(0, 300)}`;
  if (c.kind === 'invalid' && (status < 400 || status >= 500))
    return `input breaks the schema but answered ${status}: ${text.slice(0, 200)}`;
  if (c.kind === 'foreign') {
    const leaked = foreignSecrets.find((s) => text.includes(s));
    if (leaked) return `answered with another organization's data (${leaked}): ${text.slice(0, 200)}`;
  }
  if (status < 400 || status >= 500) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${status} body is not JSON: ${text.slice(0, 200)}`;
  }
  const envelope = ErrorEnvelopeSchema.safeParse(body);
  if (envelope.success && envelope.data.status === status) return undefined;
  if (documentedOtherBodies(op, status).some((s) => conforms(s, body))) return undefined;
  return `${status} body is neither the error envelope (with status ${status}) nor a body the operation documents: ${text.slice(0, 200)}`;
}
