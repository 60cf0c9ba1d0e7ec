import { MESSAGE_TRIGGERS, type Workflow } from '@mapi/contracts';
import type { TriggerEvent } from './workflow-data';

/**
 * Whether a workflow takes an event at all, before any condition: the event's phone is one of
 * `org_phones` (by phone_id or number; none listed: every phone), and — the loop guard — a message
 * this organization sent itself (from_me, e.g. a workflow's own reply) fires message triggers only
 * when `allow_internal_messages` is set. The reason it does not, or null when it does.
 */
export function refusalOf(workflow: Pick<Workflow, 'trigger' | 'trigger_metadata'>, event: TriggerEvent): string | null {
  const phones = workflow.trigger_metadata.org_phones ?? [];
  if (phones.length) {
    const digits = (s: unknown) => String(s ?? '').replace(/\D/g, '');
    const orgPhone = digits(event.data.org_phone);
    const hit = phones.some((p) => p === event.phone_id || (orgPhone !== '' && digits(p) === orgPhone));
    if (!hit) return 'the event is not of a phone in trigger_metadata.org_phones';
  }
  if (
    (MESSAGE_TRIGGERS as string[]).includes(workflow.trigger) &&
    event.data.from_me === true &&
    !workflow.trigger_metadata.allow_internal_messages
  ) {
    return 'the message was sent by this organization (from_me) and allow_internal_messages is not set';
  }
  return null;
}
