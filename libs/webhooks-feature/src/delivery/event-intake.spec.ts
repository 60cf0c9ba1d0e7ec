import { toStoredEvent } from './event-intake';

const base = {
  event_id: '7b1a2f0e-8f7e-4a55-9a41-0f5d7f2b6c11',
  org_id: '0a9d0c2e-3f4b-4c5d-8e6f-7a8b9c0d1e2f',
  phone_id: 'phone-abc123def456',
  created_at: '2026-11-25T02:00:00.000Z',
};

describe('toStoredEvent: the body a webhook receiver gets', () => {
  it("is the hosted service's envelope, with our own fields beside it", () => {
    const stored = toStoredEvent({
      ...base,
      event_type: 'org.phone.updated',
      data: { phone_name: 'front' } as never,
      previous_attributes: { phone_name: 'desk' },
    });
    expect(JSON.parse(stored!.body)).toEqual({
      event: 'org.phone.updated',
      data: { phone_name: 'front' },
      org_id: base.org_id,
      previous_attributes: { phone_name: 'desk' },
      timestamp: base.created_at,
      event_id: base.event_id,
      event_type: 'org.phone.updated',
      phone_id: base.phone_id,
      created_at: base.created_at,
    });
    expect(stored).toMatchObject({ id: base.event_id, org_id: base.org_id, type: 'org.phone.updated', phone_id: base.phone_id });
  });

  it('gives previous_attributes null when the event has none (an older relay, or not an update)', () => {
    const body = JSON.parse(toStoredEvent({ ...base, event_type: 'message.created', data: {} as never })!.body);
    expect(body.previous_attributes).toBeNull();
    expect(Object.keys(body).slice(0, 5)).toEqual(['event', 'data', 'org_id', 'previous_attributes', 'timestamp']);
  });

  it('refuses what is not an event', () => {
    expect(toStoredEvent({ ...base, event_id: 'nope', event_type: 'message.created', data: {} as never })).toBeNull();
    expect(toStoredEvent(null as never)).toBeNull();
  });
});
