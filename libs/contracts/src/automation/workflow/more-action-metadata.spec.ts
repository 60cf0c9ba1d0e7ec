import { definitionIssues, type WorkflowActionInput } from './definition';

const one = (type: string, metadata: unknown) => {
  const actions: WorkflowActionInput[] = [{ id: 'a', action_metadata: { type, metadata }, next: null }];
  return definitionIssues({ trigger: 'message.created', trigger_metadata: { first_action_id: 'a' }, actions }).map(
    (i) => `${i.path.join('.')}: ${i.message}`,
  );
};
const AT = 'actions.0.action_metadata.metadata';

describe('the metadata of assign, ticket label, flag, forward and notify_http actions', () => {
  it('accepts the hosted shapes', () => {
    expect(one('assign_ticket', { assignee: { round_robin: false, email: 'amy@example.com' } })).toEqual([]);
    expect(one('assign_ticket', { assignee: { round_robin: false, email: null } })).toEqual([]);
    expect(one('assign_chat', { assignee: { round_robin: false, email: 'amy@example.com' } })).toEqual([]);
    expect(one('add_ticket_label', { labels: ['vip'] })).toEqual([]);
    expect(one('remove_ticket_label', { labels: ['new', 'urgent'] })).toEqual([]);
    expect(one('flag_message', {})).toEqual([]);
    expect(one('unflag_message', {})).toEqual([]);
    expect(one('forward_message', { chat_id: '14155550123@c.us;120363000000@g.us' })).toEqual([]);
    expect(
      one('notify_http', {
        url: 'https://hooks.example.com/x?y=1',
        method: 'POST',
        headers: { Authorization: 'Bearer t' },
        body: '{"a":1}',
      }),
    ).toEqual([]);
    expect(
      one('notify_http', {
        url: 'http://example.com',
        method: 'GET',
        headers: {},
        body: '',
        signing_secret: 'whsec_0123456789abcdefghijklmnop',
      }),
    ).toEqual([]);
  });

  it('refuses round-robin and a bad assignee, each on its field', () => {
    expect(one('assign_ticket', { assignee: { round_robin: true, emails: ['a@example.com'] } })).toEqual([
      `${AT}.assignee.round_robin: round-robin assignment is not supported here yet`,
    ]);
    expect(one('assign_chat', { assignee: { round_robin: false, email: 'not-an-email' } })).toEqual([
      `${AT}.assignee.email: assignee.email must be an email (or null to unassign)`,
    ]);
    expect(one('assign_chat', {})).toEqual([`${AT}.assignee: assignee must be {round_robin: false, email}`]);
    expect(one('assign_chat', { assignee: { round_robin: false } })).toEqual([
      `${AT}.assignee.email: assignee.email is required (null to unassign)`,
    ]);
  });

  it('refuses empty or malformed ticket labels', () => {
    expect(one('add_ticket_label', { labels: [] })).toEqual([`${AT}.labels: name at least one label`]);
    expect(one('remove_ticket_label', { labels: ['a,b'] })).toEqual([`${AT}.labels.0: a label must not contain a comma`]);
    expect(one('add_ticket_label', { labels: 'vip' })).toEqual([`${AT}.labels: labels must be an array of label names`]);
  });

  it('refuses a forward with no chat, a malformed one, or too many', () => {
    expect(one('forward_message', { chat_id: null })[0]).toMatch(new RegExp(`^${AT}.chat_id: chat_id must name the chats to forward to`));
    expect(one('forward_message', { chat_id: '14155550123@c.us;nope' })[0]).toMatch(
      new RegExp(`^${AT}.chat_id: chat_id must be chat ids separated by ';'`),
    );
    expect(one('forward_message', { chat_id: Array.from({ length: 101 }, (_, i) => `1415555${i}@c.us`).join(';') })).toEqual([
      `${AT}.chat_id: chat_id names at most 100 chats`,
    ]);
  });

  it('refuses a notify_http without an http(s) URL, with another method, reserved or broken headers, a short secret', () => {
    expect(one('notify_http', { url: 'ftp://example.com', method: 'POST' })).toEqual([
      `${AT}.url: url must be an http(s) URL without credentials`,
    ]);
    expect(one('notify_http', { url: 'https://u:p@example.com', method: 'POST' })).toEqual([
      `${AT}.url: url must be an http(s) URL without credentials`,
    ]);
    expect(one('notify_http', { url: 'not a url', method: 'PATCH' })).toEqual([
      `${AT}.url: url must be an http(s) URL without credentials`,
      `${AT}.method: method must be GET, POST, PUT or DELETE`,
    ]);
    expect(one('notify_http', { url: 'https://example.com', method: 'POST', headers: { 'Webhook-Signature': 'x' } })).toEqual([
      `${AT}.headers.Webhook-Signature: header Webhook-Signature is set by the service`,
    ]);
    expect(one('notify_http', { url: 'https://example.com', method: 'POST', headers: { 'X-A': 'a\r\nInjected: 1' } })).toEqual([
      `${AT}.headers.X-A: a header value must be one line`,
    ]);
    expect(one('notify_http', { url: 'https://example.com', method: 'POST', signing_secret: 'short' })).toEqual([
      `${AT}.signing_secret: signing_secret must be at least 24 characters`,
    ]);
    expect(one('notify_http', { url: 'https://example.com', method: 'POST', body: 'x'.repeat(65_537) })).toEqual([
      `${AT}.body: body is at most 65536 characters`,
    ]);
  });
});
