import { z } from 'zod';

const inline = (name: string) => z.string().min(1, `${name} must not be empty`);

/**
 * A file given inline or by reference: `filename` plus exactly one of `file` (a data URL
 * `data:<mime>;base64,...` or plain base64 in JSON; the uploaded file of a multipart request, which the
 * gateway passes on as base64), `url` (http/https) or `base64`. `mimetype` is optional (guessed from
 * the file name or data URL otherwise). Sizes are the service's to check (413 above its limits); the
 * gateway bounds the body (UPLOAD_MAX_FILE_BYTES) and requests over NATS max_payload travel in chunks.
 */
export const FileInputSchema = z
  .object({
    filename: z.string().trim().min(1, 'filename is required').max(255, 'filename is at most 255 characters'),
    file: inline('file').optional(),
    url: z.url({ protocol: /^https?$/, error: 'url must be an http or https URL' }).optional(),
    base64: inline('base64').optional(),
    mimetype: z.string().min(1).max(255).optional(),
  })
  .superRefine((value, ctx) => {
    const given = (['file', 'url', 'base64'] as const).filter((k) => value[k] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message:
          given.length === 0
            ? 'exactly one of file, url, base64 is required; none was given'
            : `exactly one of file, url, base64 is required; got ${given.join(' and ')}`,
      });
    }
  });
export type FileInput = z.infer<typeof FileInputSchema>;
