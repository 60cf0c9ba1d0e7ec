import { editBody, outcome, subscriptionName } from './webhook-view';

describe('console webhooks page logic', () => {
  const sub = { hook_url: 'https://a.example/h', integration_name: 'message.created', integration_metadata: { id: 'i', name: 'Orders' } };

  it('describes an attempt by its HTTP status, or the error when there was no answer', () => {
    expect(outcome({ success: true, status_code: 200, error: null })).toBe('delivered · HTTP 200');
    expect(outcome({ success: false, status_code: 500, error: null })).toBe('failed · HTTP 500');
    expect(outcome({ success: false, status_code: null, error: 'timeout' })).toBe('failed · timeout');
  });
  it('names a subscription by its metadata name, else its URL', () => {
    expect(subscriptionName(sub)).toBe('Orders');
    expect(subscriptionName({ ...sub, integration_metadata: { id: 'i', name: '' } })).toBe('https://a.example/h');
  });
  it('sends only what an edit changed, and nothing when nothing did', () => {
    expect(editBody(sub, { hookUrl: ' https://a.example/h ', integrationName: 'message.created', name: 'Orders' })).toBeNull();
    expect(editBody(sub, { hookUrl: 'https://b.example/h', integrationName: 'ticket.created', name: '' })).toEqual({
      hookUrl: 'https://b.example/h',
      integrationName: 'ticket.created',
    });
    expect(editBody(sub, { hookUrl: sub.hook_url, integrationName: sub.integration_name, name: 'Shop' })).toEqual({ name: 'Shop' });
  });
});
