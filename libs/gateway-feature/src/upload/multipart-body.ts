import type {} from '@fastify/multipart'; // FastifyRequest.parts()
import { ErrorCode, Errors, ServiceError, type RouteUpload } from '@mapi/contracts';
import type { FastifyRequest } from 'fastify';

const MAX_TEXT_FIELDS = 50;
const MAX_TEXT_FIELD_BYTES = 1024 * 1024;
const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

const tooLarge = (maxFileBytes: number) =>
  new ServiceError(ErrorCode.PAYLOAD_TOO_LARGE_ERROR, 413, `The uploaded file is larger than the limit of ${maxFileBytes} bytes`);
const invalid = (field: string, message: string) => Errors.validation({ [field]: { message } }, 'Invalid multipart body');

/** `a[b]` and `a.b` both name `a.b`; answers the path, or null for a name that cannot be a body path. */
function pathOf(fieldname: string): string[] | null {
  const path = fieldname.replace(/\[([^\]]*)\]/g, '.$1').split('.');
  return path.every((p) => p !== '' && !FORBIDDEN_KEYS.has(p)) ? path : null;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): boolean {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === undefined) node = node[key] = {} as Record<string, unknown>;
    else if (typeof next === 'object' && next !== null) node = next as Record<string, unknown>;
    else return false; // `a` given as text and `a.b` too
  }
  node[path[path.length - 1]] = value;
  return true;
}

/**
 * Reads a multipart/form-data request of an upload route into the body the route's JSON form has:
 * text parts become fields (booleans where the route says), the one file part becomes
 * `body[fileField] = { filename, mimetype, file: <base64> }`, the part's own name and type used
 * unless the text parts `<fileField>.filename` / `<fileField>.mimetype` say otherwise.
 * Too large a file → 413; a second file, a file in another part, or a malformed body → 422.
 */
export async function readMultipartBody(req: FastifyRequest, upload: RouteUpload, maxFileBytes: number): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  const fileNames = new Set([upload.fileField, `${upload.fileField}.file`, 'file']);
  const booleans = new Set(upload.booleanFields ?? []);
  let file: { bytes: Buffer; filename: string; mimetype: string } | undefined;
  try {
    const parts = req.parts({
      limits: { fileSize: maxFileBytes, files: 5, fields: MAX_TEXT_FIELDS, fieldSize: MAX_TEXT_FIELD_BYTES, parts: MAX_TEXT_FIELDS + 5 },
    });
    for await (const part of parts) {
      const path = pathOf(part.fieldname);
      if (part.type === 'file') {
        if (!path || !fileNames.has(path.join('.'))) {
          part.file.resume();
          throw invalid(`body.${part.fieldname}`, `unexpected file part; send the file in the part "${upload.fileField}"`);
        }
        if (file) {
          part.file.resume();
          throw invalid(`body.${upload.fileField}`, 'only one file may be uploaded');
        }
        file = { bytes: await part.toBuffer(), filename: part.filename, mimetype: part.mimetype };
        continue;
      }
      if (!path) throw invalid(`body.${part.fieldname}`, 'not a valid field name');
      if (part.valueTruncated) throw invalid(`body.${path.join('.')}`, `longer than ${MAX_TEXT_FIELD_BYTES} bytes`);
      const text = String(part.value);
      const value = booleans.has(path.join('.')) && (text === 'true' || text === 'false') ? text === 'true' : text;
      if (!setPath(body, path, value)) throw invalid(`body.${path.join('.')}`, 'conflicts with another field of the form');
    }
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxFileBytes);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw invalid('body', `at most ${MAX_TEXT_FIELDS} fields`);
    throw invalid('body', 'Request body is not valid multipart/form-data');
  }
  if (file) {
    const current = body[upload.fileField];
    const given = typeof current === 'object' && current !== null ? (current as Record<string, unknown>) : {};
    if ('file' in given) throw invalid(`body.${upload.fileField}.file`, 'given twice');
    body[upload.fileField] = {
      filename: file.filename || undefined,
      ...(file.mimetype && file.mimetype !== 'application/octet-stream' ? { mimetype: file.mimetype } : {}),
      ...given,
      file: file.bytes.toString('base64'),
    };
  }
  return body;
}
