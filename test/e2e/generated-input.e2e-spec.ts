import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppProcess, freePort } from '@mapi/testing';
import { problemOf } from './support/generated-input/check-answer';
import { generateCases, operationsOf, type GeneratedCase, type Operation } from './support/generated-input/generated-requests';
import { seedWorld, type SeededWorld } from './support/generated-input/seed-fixtures';
import { LEGACY_STORAGE_URL, MEDIA_BUCKETS, SIGNING_KEYS } from './support/media-stack';
import { inWindow, startStack, type Stack } from './support/stack';

/**
 * Generated input over every operation of GET /v1/openapi.json (docs/architecture.md, "Tests"):
 * schema-valid requests with the seeded organization's ids, and mutated ones (wrong types, missing
 * fields, out-of-range values, huge and odd strings, extra fields, malformed JSON, wrong content
 * types, odd path segments, bad x-phone values, no token, another organization's ids). No answer is
 * a 5xx, every answer comes within ANSWER_MS, every 4xx is the spec's envelope (or a body the
 * operation documents), an input that breaks the schema is a 4xx, and nothing of the other
 * organization comes back. A new route joins by being in the document.
 *
 * Reproduce a failure with the seed it prints: GENERATED_INPUT_SEED=<seed> npx jest test/e2e/generated-input
 */
// The stack of every service and about 3,500 requests: 2–3 minutes on a loaded 2-core machine.
jest.setTimeout(300_000);

const SEED = Number(process.env.GENERATED_INPUT_SEED ?? 20_240_611);
const VALID_PER_OPERATION = 3;
const MUTATED_PER_OPERATION = 24;
const ANSWER_MS = 5_000;
const PARALLEL_OPERATIONS = 4;

/**
 * Operations handled deliberately. Every operation is generated; these run after all the others, and
 * those marked `throwaway` act on a phone of their own (not the connected one the other operations
 * use), because their valid requests change state the other operations' requests rely on. The
 * deletion of that phone runs alone, at the very end.
 */
const SPECIAL: Record<string, { reason: string; throwaway?: boolean; final?: boolean }> = {
  deletePhone: { reason: 'deletes the phone it names', throwaway: true, final: true },
  resetPhone: { reason: 'logs the phone out (back to QR)', throwaway: true },
  restartPhone: { reason: "restarts the phone's session", throwaway: true },
  sandboxScan: { reason: 'pairs a phone waiting for its QR (the connected phone would refuse it)', throwaway: true },
  sandboxState: { reason: 'disconnects the phone or makes it unreachable', throwaway: true },
  getPairingCode: { reason: 'asks a phone waiting for its QR for a pairing code', throwaway: true },
  deleteFaq: { reason: 'deletes the seeded FAQ other operations read' },
  deleteDocument: { reason: 'deletes the seeded document other operations read' },
  deleteWebhook: { reason: 'deletes the seeded subscription other operations read' },
  deleteEventSink: { reason: 'deletes the seeded event sink other operations read' },
  purgeMessageQueues: { reason: 'purges the seeded queue jobs other operations read' },
  purgeQueue: { reason: 'purges the seeded queue jobs other operations read' },
};

interface Failure {
  operation: string;
  label: string;
  request: string;
  problem: string;
}

describe('generated input over every route of the OpenAPI document', () => {
  let stack: Stack;
  let media: AppProcess;
  let storageRoot: string;
  let world: SeededWorld;
  let operations: Operation[];

  beforeAll(async () => {
    storageRoot = mkdtempSync(join(tmpdir(), 'mapi-generated-'));
    const mediaPort = await freePort();
    const shared = {
      RATE_LIMIT_PER_SECOND: '1000000',
      SESSION_SCAN_MS: '200',
      QUEUE_PHONE_SCAN_MS: '200',
      // API role only: no deliveries to the generated hook URLs leave the machine
      WEBHOOK_ROLES: 'api',
      MEDIA_STORAGE_BACKEND: 'local',
      MEDIA_STORAGE_ROOT: storageRoot,
      MEDIA_BASE_URL: `http://127.0.0.1:${mediaPort}`,
      MEDIA_BUCKETS: MEDIA_BUCKETS.join(','),
      MEDIA_LEGACY_STORAGE_URL: LEGACY_STORAGE_URL,
      MEDIA_JWT_KEYS: JSON.stringify(SIGNING_KEYS),
    };
    // Every service, three starting at a time (each next one as soon as one is ready) so that each comes up within its readiness timeout on a busy 2-core machine.
    stack = await startStack(shared, { services: ['phones', 'queue'] });
    await inWindow<unknown>([
      ...[
        'groups',
        'webhooks-dispatcher',
        'inbox',
        'members',
        'automation',
        'knowledge-base',
        'embedding-worker',
        'importer',
        'analytics',
      ].map((app) => () => stack.startService(app)),
      async () => {
        // media serves its health routes on its file server, not on HEALTH_PORT
        media = AppProcess.start('media', { ...stack.env, MEDIA_HTTP_PORT: String(mediaPort), MEDIA_HTTP_HOST: '127.0.0.1' });
        await media.waitReady(`http://127.0.0.1:${mediaPort}/health/ready`);
      },
    ]);
    world = await seedWorld(stack, storageRoot);
    const doc = (await (await fetch(`${stack.baseUrl}/v1/openapi.json`)).json()) as Parameters<typeof operationsOf>[0];
    operations = operationsOf(doc);
    for (const id of Object.keys(SPECIAL)) {
      if (!operations.some((op) => op.operationId === id)) throw new Error(`SPECIAL names ${id}, which the document does not have`);
    }
  }, 120_000);

  afterAll(async () => {
    await media?.stop();
    await stack?.stop();
    rmSync(storageRoot, { recursive: true, force: true });
  }, 60_000);

  const send = async (c: GeneratedCase) => {
    const auth: Record<string, string> =
      c.auth === 'self'
        ? { authorization: `Bearer ${world.tokenA}` }
        : c.auth === 'malformed'
          ? { authorization: 'Bearer mapi_not-a-token' }
          : {};
    const started = Date.now();
    const res = await fetch(`${stack.baseUrl}/v1${c.url}`, {
      method: c.method,
      headers: { ...c.headers, ...auth },
      body: c.body,
      signal: AbortSignal.timeout(ANSWER_MS),
    });
    return { status: res.status, text: await res.text(), ms: Date.now() - started };
  };

  const run = async (op: Operation): Promise<Failure[]> => {
    const special = SPECIAL[op.operationId];
    const hints = special?.throwaway ? { ...world.hints, 'x-phone': [world.throwawayPhone] } : world.hints;
    const cases = generateCases(
      op,
      { hints, foreign: world.foreign },
      { seed: SEED, valid: VALID_PER_OPERATION, mutated: MUTATED_PER_OPERATION },
    );
    const failures: Failure[] = [];
    for (const c of cases) {
      const request = `${c.method} ${c.url.slice(0, 120)} ${c.body === undefined ? '' : c.body.slice(0, 160)}`;
      try {
        const problem = problemOf(op, c, await send(c), world.foreignSecrets);
        if (problem) failures.push({ operation: `${op.method} ${op.path}`, label: c.label, request, problem });
      } catch (error) {
        failures.push({
          operation: `${op.method} ${op.path}`,
          label: c.label,
          request,
          problem: `no answer within ${ANSWER_MS} ms: ${(error as Error).message}`,
        });
      }
    }
    return failures;
  };

  const runAll = async (ops: Operation[]) => {
    const failures: Failure[] = [];
    const queue = [...ops];
    await Promise.all(
      Array.from({ length: PARALLEL_OPERATIONS }, async () => {
        for (let op = queue.shift(); op; op = queue.shift()) failures.push(...(await run(op)));
      }),
    );
    return failures;
  };

  const report = (failures: Failure[]) =>
    failures.length === 0
      ? ''
      : `${failures.length} failing generated request(s); reproduce with GENERATED_INPUT_SEED=${SEED}\n` +
        failures.map((f) => `- ${f.operation} [${f.label}] ${f.problem}\n    ${f.request}`).join('\n');

  it('covers every operation of the document, the special ones last', async () => {
    expect(operations.length).toBeGreaterThan(40);
    const ordinary = operations.filter((op) => !SPECIAL[op.operationId]);
    const last = operations.filter((op) => SPECIAL[op.operationId] && !SPECIAL[op.operationId].final);
    const final = operations.filter((op) => SPECIAL[op.operationId]?.final);
    const started = Date.now();
    const failures = [...(await runAll(ordinary)), ...(await runAll(last)), ...(await runAll(final))];
    process.stdout.write(`generated-input: ${operations.length} operations in ${Date.now() - started} ms (seed ${SEED})\n`);
    expect(report(failures)).toBe('');
  });
});
