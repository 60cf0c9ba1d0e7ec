import type { WorkflowActionInput, WorkflowDefinition } from '@mapi/contracts';
import { refusalOf } from './admission';
import { decide, walk } from './graph';
import { workflowData } from './workflow-data';

const cond = (value: string) => ({
  operator: 'AND',
  conditions: [{ id: 'c', variable_name: 'message.body', variable_type: 'string', condition: 'CONTAINS', value }],
});
const act = (id: string, type: string, metadata: unknown, next: string | null = null): WorkflowActionInput => ({
  id,
  action_metadata: { type, metadata },
  next,
});
const msg = (body: string, over: Record<string, unknown> = {}) => ({
  event_type: 'message.created',
  phone_id: 'p1',
  data: { chat_id: '1@c.us', org_phone: '14155550100', body, from_me: false, ...over },
});
const data = (body: string) => workflowData('message.created', msg(body));

const graph: WorkflowDefinition = {
  trigger: 'message.created',
  trigger_metadata: { first_action_id: 'gate' },
  actions: [
    act('gate', 'validate_action', cond('help'), 'split'),
    {
      id: 'split',
      action_metadata: {
        type: 'split_path',
        metadata: {
          paths: [
            { id: 'urgent', condition_action_id: 'is-urgent' },
            { id: 'price', condition_action_id: 'is-price' },
            { id: 'rest', condition_action_id: 'always' },
          ],
        },
      },
    },
    act('is-urgent', 'validate_action', cond('urgent'), 'label'),
    act('is-price', 'validate_action', cond('price'), 'wait'),
    act('always', 'validate_action', { operator: 'AND', conditions: [] }, null),
    act('label', 'add_chat_label', { labels: ['urgent'] }, 'reply'),
    act('wait', 'delay', { delay: '2 minutes' }, 'reply'),
    act('reply', 'send_message_to_chat', { message: 'on it', chat_id: 'trigger_chat' }, null),
  ],
};
const byId = (id: string) => graph.actions.find((a) => a.id === id) as WorkflowActionInput;

describe('decide', () => {
  it('validate_action continues when its condition holds, ends the path when not', () => {
    expect(decide(graph, byId('gate'), data('help me'))).toEqual({ kind: 'condition', passed: true, next: 'split' });
    expect(decide(graph, byId('gate'), data('hello'))).toEqual({ kind: 'condition', passed: false, next: null });
  });

  it('split_path takes the first path whose condition holds, continuing after that condition', () => {
    expect(decide(graph, byId('split'), data('urgent price help'))).toEqual({
      kind: 'split',
      path_id: 'urgent',
      condition_action_id: 'is-urgent',
      next: 'label',
    });
    expect(decide(graph, byId('split'), data('price help'))).toEqual({
      kind: 'split',
      path_id: 'price',
      condition_action_id: 'is-price',
      next: 'wait',
    });
    expect(decide(graph, byId('split'), data('help'))).toEqual({
      kind: 'split',
      path_id: 'rest',
      condition_action_id: 'always',
      next: null,
    });
  });

  it('a split where no path holds ends the path', () => {
    const noDefault = {
      ...graph,
      actions: graph.actions.map((a) =>
        a.id === 'split'
          ? { ...a, action_metadata: { type: 'split_path', metadata: { paths: [{ id: 'urgent', condition_action_id: 'is-urgent' }] } } }
          : a,
      ),
    };
    expect(decide(noDefault, noDefault.actions[1], data('help'))).toEqual({
      kind: 'split',
      path_id: null,
      condition_action_id: null,
      next: null,
    });
  });

  it('delay makes the next action due later; other actions run then continue', () => {
    expect(decide(graph, byId('wait'), data(''))).toEqual({ kind: 'delay', delay_ms: 120_000, next: 'reply' });
    expect(decide(graph, byId('label'), data(''))).toEqual({ kind: 'action', next: 'reply' });
    expect(decide(graph, byId('reply'), data(''))).toEqual({ kind: 'action', next: null });
  });
});

describe('walk (dry run)', () => {
  it("lists the path a run takes, with the split's paths taken and not taken", () => {
    expect(walk(graph, data('price, help'))).toEqual([
      { action_id: 'gate', type: 'validate_action', outcome: 'condition_passed' },
      { action_id: 'split', type: 'split_path', outcome: 'path_taken' },
      { action_id: 'is-urgent', type: 'validate_action', outcome: 'path_not_taken' },
      { action_id: 'is-price', type: 'validate_action', outcome: 'path_taken' },
      { action_id: 'always', type: 'validate_action', outcome: 'path_not_taken' },
      { action_id: 'wait', type: 'delay', outcome: 'would_wait' },
      { action_id: 'reply', type: 'send_message_to_chat', outcome: 'would_run' },
    ]);
  });

  it('stops where a condition fails', () => {
    expect(walk(graph, data('hello'))).toEqual([{ action_id: 'gate', type: 'validate_action', outcome: 'condition_failed' }]);
  });

  it('an empty workflow walks nowhere', () => {
    expect(walk({ trigger: 'message.created', trigger_metadata: { first_action_id: null }, actions: [] }, data('x'))).toEqual([]);
  });
});

describe('refusalOf: why a workflow does not take an event (before any condition)', () => {
  const wf = (meta: Record<string, unknown> = {}, trigger = 'message.created') => ({
    trigger,
    trigger_metadata: { org_phones: [], allow_internal_messages: false, first_action_id: null, ...meta },
  });

  it('loop guard: a message the organization sent itself fires message triggers only with allow_internal_messages', () => {
    expect(refusalOf(wf(), msg('x', { from_me: true }))).toMatch(/from_me/);
    expect(refusalOf(wf({ allow_internal_messages: true }), msg('x', { from_me: true }))).toBeNull();
    expect(refusalOf(wf(), msg('x'))).toBeNull();
    expect(refusalOf(wf({}, 'ticket.created'), { event_type: 'ticket.created', data: { from_me: true } })).toBeNull();
  });

  it('org_phones narrows to those phones, by phone_id or number', () => {
    expect(refusalOf(wf({ org_phones: ['p1'] }), msg('x'))).toBeNull();
    expect(refusalOf(wf({ org_phones: ['+1 415 555 0100'] }), msg('x'))).toBeNull();
    expect(refusalOf(wf({ org_phones: ['p2', '14155550199'] }), msg('x'))).toMatch(/org_phones/);
  });
});

describe('needsChat', () => {
  const labelCond = (name: string) => ({
    operator: 'AND',
    conditions: [{ id: 'c', variable_name: name, variable_type: 'array', condition: 'IS_ANY_OF', value: ['vip'] }],
  });
  it('is true where a condition reads a chat field the event does not carry, on a non-chat trigger', async () => {
    const { needsChat } = await import('./chat-facts');
    expect(needsChat(graph, act('x', 'validate_action', labelCond('chat.labels')))).toBe(true);
    expect(
      needsChat(graph, act('x', 'validate_action', { operator: 'OR', conditions: [cond('a'), labelCond('chat.custom_properties.tier')] })),
    ).toBe(true);
    expect(needsChat(graph, act('x', 'validate_action', labelCond('chat.chat_id')))).toBe(false);
    expect(needsChat(graph, byId('gate'))).toBe(false);
    expect(needsChat(graph, byId('reply'))).toBe(false);
    expect(needsChat({ ...graph, trigger: 'chat.label.updated' }, act('x', 'validate_action', labelCond('chat.labels')))).toBe(false);
    const withSplit = {
      ...graph,
      actions: [
        ...graph.actions,
        act('lbl', 'validate_action', labelCond('chat.label_ids'), null),
        { id: 's2', action_metadata: { type: 'split_path', metadata: { paths: [{ id: 'p', condition_action_id: 'lbl' }] } } },
      ],
    };
    expect(needsChat(withSplit, withSplit.actions[withSplit.actions.length - 1])).toBe(true);
  });
});
