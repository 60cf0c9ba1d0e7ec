import { readRepoFile, walkFiles } from './repo';

/**
 * The Redis key prefix of the embedding queue as the knowledge-base code builds it
 * (`queuePrefix(namespace)` + ':' + EMBEDDING_QUEUE, BullMQ's layout), so the KEDA trigger reads
 * the list the worker really consumes.
 */
export function embeddingQueueKeyPrefix(namespace: string): string {
  const sources = walkFiles('libs/knowledge-base-feature/src', (p) => p.endsWith('.ts') && !p.includes('spec.ts')).map(readRepoFile).join('\n');
  const queue = /EMBEDDING_QUEUE\s*=\s*'([^']+)'/.exec(sources)?.[1];
  const prefix = /queuePrefix\s*=\s*\(\s*namespace[^)]*\)\s*=>\s*`\$\{namespace\}([^`$]*)`/.exec(sources)?.[1];
  if (!queue || prefix === undefined) {
    throw new Error('libs/knowledge-base-feature: EMBEDDING_QUEUE or queuePrefix(namespace) not found; update test/deploy/support/queues.ts and the KEDA ScaledObject');
  }
  return `${namespace}${prefix}:${queue}`;
}
