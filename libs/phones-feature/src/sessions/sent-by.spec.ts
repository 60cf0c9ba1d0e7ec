import type { IngestMessage } from '@mapi/contracts';
import { SentBy } from './sent-by';

const message = (over: Partial<IngestMessage>): IngestMessage => ({
  chat_id: '15550001111@c.us',
  unique_id: 'U1',
  from_me: true,
  sender_phone: '15550009999@c.us',
  body: 'hi',
  message_type: 'chat',
  timestamp: '2026-01-01T00:00:00.000Z',
  ack: 1,
  ...over,
});

describe('SentBy', () => {
  it("stamps the sender on the report of the session's own send, and on nothing else", () => {
    const sentBy = new SentBy();
    sentBy.note('job-1', 'ana@example.com');
    sentBy.note('job-2', null); // a workflow's send: nothing kept
    const [mine, workflow, received, typed] = sentBy.stamp([
      message({ sent_message_id: 'job-1' }),
      message({ sent_message_id: 'job-2', unique_id: 'U2' }),
      message({ from_me: false, unique_id: 'U3' }),
      message({ unique_id: 'U4' }),
    ]);
    expect(mine.performed_by).toBe('ana@example.com');
    expect(workflow).not.toHaveProperty('performed_by');
    expect(received).not.toHaveProperty('performed_by');
    expect(typed).not.toHaveProperty('performed_by');
    expect(sentBy.size).toBe(1);
    // reported again (a later sync): stamped again; a sender the report already names is kept
    expect(sentBy.stamp([message({ sent_message_id: 'job-1' })])[0].performed_by).toBe('ana@example.com');
    expect(sentBy.stamp([message({ sent_message_id: 'job-1', performed_by: 'import@example.com' })])[0].performed_by).toBe(
      'import@example.com',
    );
  });

  it('forgets a sender after its keep time, and the oldest past its size', () => {
    let now = 1_000;
    const sentBy = new SentBy(60_000, 2, () => now);
    sentBy.note('a', 'ana@example.com');
    now += 30_000;
    sentBy.note('b', 'bo@example.com');
    now += 30_001; // a's time is over, b's is not
    const [a, b] = sentBy.stamp([message({ sent_message_id: 'a' }), message({ sent_message_id: 'b' })]);
    expect(a.performed_by).toBeUndefined();
    expect(b.performed_by).toBe('bo@example.com');
    sentBy.note('c', 'cy@example.com');
    sentBy.note('d', 'di@example.com');
    expect(sentBy.size).toBe(2);
    expect(sentBy.stamp([message({ sent_message_id: 'b' })])[0].performed_by).toBeUndefined();
  });
});
