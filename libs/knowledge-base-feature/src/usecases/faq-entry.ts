import { Errors, type KbEntryType } from '@mapi/contracts';
import type { KbEntryRow } from '../rows/kb-entry-row';

export const faqNotFound = (contextId: string) => Errors.notFound(`No FAQ ${contextId} in this organization's knowledge base`);

/**
 * The FAQ routes act on entries of the types given; another type is a 422 naming the route to use.
 * Unknown ids and other organizations' ids are the same 404 (nothing is revealed about them).
 */
export function requireType(row: KbEntryRow | null, contextId: string, types: KbEntryType[]): KbEntryRow {
  if (!row) throw faqNotFound(contextId);
  if (!types.includes(row.type)) {
    const hint = row.type === 'document' ? '; document chunks are removed with DELETE /knowledge-base/document/{document_id}' : '';
    throw Errors.validation(
      { context_id: { message: `entry ${contextId} is of type ${row.type}, not ${types.join(' or ')}${hint}`, value: contextId } },
      `Knowledge-base entry ${contextId} is of type ${row.type}; this route acts on ${types.join(' or ')} entries only`,
    );
  }
  return row;
}
