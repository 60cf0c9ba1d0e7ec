import { base64Length } from '@mapi/contracts';
import { parseConfig } from '@mapi/platform';
import { z } from 'zod';

const MiB = 1024 * 1024;

/**
 * The gateway's settings for routes that take a file (contracts with `upload`), read beside the
 * shared groups: only the gateway reads them.
 */
export const UploadConfigSchema = z.object({
  /**
   * Largest uploaded file: a multipart file part above it is a 413; a JSON body of such a route may be
   * as large as this file in base64 (the global BODY_LIMIT_BYTES still applies to every other route).
   * Keep it at least the knowledge base's KB_DOCUMENT_MAX_BYTES, which then answers with its own 413.
   */
  UPLOAD_MAX_FILE_BYTES: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number()
      .int()
      .min(1)
      .max(1024 * MiB)
      .default(20 * MiB),
  ),
});
export type UploadConfig = z.infer<typeof UploadConfigSchema>;

export function loadUploadConfig(env: NodeJS.ProcessEnv = process.env): UploadConfig {
  return parseConfig(UploadConfigSchema, env);
}

/** Body limit of a JSON request on an upload route: the largest file in base64, plus room for the other fields. */
export function uploadJsonBodyLimit(maxFileBytes: number, globalLimit: number): number {
  return Math.max(globalLimit, base64Length(maxFileBytes) + MiB);
}
