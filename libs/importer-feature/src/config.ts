import { z } from 'zod';
import { parseConfig } from '@mapi/platform';

/** The importer's own variables (IMPORT_*); see docs/services/imports.md. */
export const ImporterConfigSchema = z.object({
  /** Address ranges a source may be at despite the SSRF block, e.g. 127.0.0.1/32 for a stack on this host. */
  IMPORT_SOURCE_ALLOW_CIDRS: z
    .string()
    .default('')
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean)),
});
export type ImporterConfig = z.infer<typeof ImporterConfigSchema>;

export function loadImporterConfig(env: NodeJS.ProcessEnv = process.env): ImporterConfig {
  return parseConfig(ImporterConfigSchema, env);
}
