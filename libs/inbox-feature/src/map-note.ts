import type { Note } from '@mapi/contracts';
import type { NoteRow } from './repositories/note-repository';

/**
 * A note row as the `tbl_chat_notes` row of @periskope/types (note.created's object and the note
 * routes' items): every column present, null where nothing is kept. A note is a text note written
 * from the organization's side (`from_me`), private, never sent: no ack, no sent message.
 */
export function mapNote(row: NoteRow): Note {
  return {
    message_id: row.note_id,
    unique_id: row.note_id,
    chat_id: row.chat_id,
    org_id: row.org_id,
    org_phone: row.org_phone,
    body: row.body,
    prev_body: null,
    message_type: 'chat',
    media: null,
    mentioned_ids: null,
    quoted_message_id: row.quoted_message_id,
    is_private_note: true,
    is_deleted: false,
    from_me: true,
    sender_phone: row.org_phone || null,
    performed_by: row.performed_by,
    sent_message_id: null,
    ack: null,
    timestamp: row.timestamp.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
