import { triggersOf, WORKFLOW_TRIGGERS } from '@mapi/contracts';
import type { ActionContext } from './actions/action-context';
import { messageOf } from './actions/message-of';
import { evaluateGroup } from './conditions';
import { eventChatId, workflowData, type TriggerEvent } from './workflow-data';

/** The trigger sla.breached (issue 34, emitted by the analytics service): what fires it and what its workflows read. */
describe('the sla.breached trigger', () => {
  const event: TriggerEvent = {
    event_id: 'e-1',
    event_type: 'sla.breached',
    phone_id: 'phone-1',
    created_at: '2026-11-30T09:15:02.104Z',
    data: {
      breach_id: 'b-1',
      policy_id: 'p-1',
      policy_name: 'VIP first reply',
      kind: 'first_response',
      minutes: 15,
      label_id: 'vip',
      policy_phone_id: null,
      phone_id: 'phone-1',
      chat_id: '919876543210@c.us',
      message_id: 'false_919876543210@c.us_ABC',
      waiting_since: '2026-11-30T09:00:01.000Z',
      due_at: '2026-11-30T09:15:01.000Z',
      breached_at: '2026-11-30T09:15:02.104Z',
      business_hours: false,
    },
  };

  it('is a trigger a workflow may name, fired by the sla.breached event only', () => {
    expect(WORKFLOW_TRIGGERS).toContain('sla.breached');
    expect(triggersOf('sla.breached', event)).toEqual(['sla.breached']);
    expect(triggersOf('message.created')).not.toContain('sla.breached');
  });

  it('gives its conditions the breach, the chat and the waiting message, and its actions the chat and message', () => {
    const data = workflowData('sla.breached', event);
    expect(data.sla).toMatchObject({ policy_name: 'VIP first reply', kind: 'first_response', minutes: 15 });
    expect(data.chat).toEqual({ chat_id: '919876543210@c.us', chat_type: 'user' });
    expect(data.message).toEqual({ message_id: 'false_919876543210@c.us_ABC' });
    expect(eventChatId(event)).toBe('919876543210@c.us');
    expect(messageOf({ event } as ActionContext)).toBe('false_919876543210@c.us_ABC');
    const group = (variable_name: string, value: string) =>
      ({ operator: 'AND', conditions: [{ id: 'c', variable_name, variable_type: 'string', condition: 'EQUALS', value }] }) as Parameters<
        typeof evaluateGroup
      >[0];
    expect(evaluateGroup(group('sla.kind', 'first_response'), data)).toBe(true);
    expect(evaluateGroup(group('sla.label_id', 'other'), data)).toBe(false);
  });
});
