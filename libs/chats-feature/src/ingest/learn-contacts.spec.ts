import type { IngestMessage } from '@mapi/contracts';
import { contactsSeen } from './learn-contacts';

const ORG = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const me = '440000000001@c.us';
const m = (chat_id: string, over: Partial<IngestMessage> = {}): IngestMessage => ({
  chat_id,
  unique_id: 'U',
  from_me: false,
  sender_phone: chat_id,
  body: 'hi',
  message_type: 'chat',
  timestamp: '2026-01-01T00:00:00Z',
  ack: 1,
  ...over,
});

describe('contactsSeen', () => {
  it('takes every inbound sender and 1-1 partner once per organization, with the latest push name, sorted', () => {
    const seen = contactsSeen([
      {
        org_id: ORG,
        phone_id: 'phone-b',
        org_phone: me,
        messages: [m('447700900449@c.us', { sender_name: 'Old' }), m('447700900449@c.us', { sender_name: 'New' })],
      },
      {
        org_id: ORG,
        phone_id: 'phone-a',
        org_phone: me,
        messages: [m('447700900449@c.us'), m('120363@g.us', { sender_phone: '447700900448@c.us', sender_name: ' Grace ' })],
      },
      { org_id: OTHER, phone_id: 'phone-c', org_phone: '440000000002@c.us', messages: [m('447700900449@c.us', { sender_name: 'Theirs' })] },
    ]);
    expect(seen).toEqual([
      { org_id: ORG, contact_id: '447700900448@c.us', pushname: 'Grace', phone_ids: ['phone-a'] },
      { org_id: ORG, contact_id: '447700900449@c.us', pushname: 'New', phone_ids: ['phone-a', 'phone-b'] },
      { org_id: OTHER, contact_id: '447700900449@c.us', pushname: 'Theirs', phone_ids: ['phone-c'] },
    ]);
  });

  it('takes the partner of a message sent from the phone without a name, and never the phone itself, a group or a LID', () => {
    const seen = contactsSeen([
      {
        org_id: ORG,
        phone_id: 'phone-a',
        org_phone: me,
        messages: [
          m('447700900447@c.us', { from_me: true, sender_phone: me, sender_name: 'Me myself' }),
          m('120363@g.us', { from_me: true, sender_phone: me }),
          m('120363@g.us', { sender_phone: '99887766554433@lid', sender_name: 'Unknown' }),
        ],
      },
    ]);
    expect(seen).toEqual([{ org_id: ORG, contact_id: '447700900447@c.us', pushname: null, phone_ids: ['phone-a'] }]);
  });
});
