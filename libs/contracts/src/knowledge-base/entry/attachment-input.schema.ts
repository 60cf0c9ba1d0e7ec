import { z } from 'zod';

/**
 * Largest inline file (base64 or data URL) a request may carry, in base64 characters. Requests travel
 * from the gateway to the service as one NATS message (1 MiB max_payload by default; the gateway does
 * not chunk requests), so inline files are capped below that: 700,000 characters ≈ 512 KiB of file.
 * Larger files: pass a `url`.
 */
export const MAX_INLINE_BASE64_CHARS = 700_000;

const inline = (name: string) =>
  z
    .string()
    .min(1, `${name} must not be empty`)
    .max(MAX_INLINE_BASE64_CHARS, `${name} is too large: at most ${MAX_INLINE_BASE64_CHARS} base64 characters (about 512 KiB) inline; pass a url for larger files`);

/**
 * A file given inline or by reference: `filename` plus exactly one of `file` (a data URL
 * `data:<mime>;base64,...` or plain base64, as JSON cannot carry raw bytes), `url` (http/https) or
 * `base64`. `mimetype` is optional (guessed from the file name or data URL otherwise).
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
