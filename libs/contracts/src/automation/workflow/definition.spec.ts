import { CreateWorkflowBody } from '../create-workflow/create-workflow.contract';
import { definitionIssues, type WorkflowActionInput, type WorkflowDefinition } from './definition';

const send = (id: string, next: string | null = null): WorkflowActionInput => ({
  id,
  action_metadata: { type: 'send_message_to_chat', metadata: { message: 'hi', chat_id: 'trigger_chat' } },
  next,
});
const validate = (id: string, next: string | null = null, value = 'x'): WorkflowActionInput => ({
  id,
  action_metadata: {
    type: 'validate_action',
    metadata: {
      operator: 'AND',
      conditions: [{ id: 'c', variable_name: 'message.body', variable_type: 'string', condition: 'CONTAINS', value }],
    },
  },
  next,
});
const split = (id: string, targets: string[]): WorkflowActionInput => ({
  id,
  action_metadata: { type: 'split_path', metadata: { paths: targets.map((t, i) => ({ id: `p${i}`, condition_action_id: t })) } },
});
const def = (
  actions: WorkflowActionInput[],
  first: string | null = actions[0]?.id ?? null,
  trigger = 'message.created',
): WorkflowDefinition => ({ trigger, trigger_metadata: { first_action_id: first }, actions });
const paths = (d: WorkflowDefinition) => definitionIssues(d).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('definitionIssues', () => {
  it('accepts a well-formed graph with a split, delays and every runnable action', () => {
    expect(
      paths(
        def([
          validate('v', 'd'),
          { id: 'd', action_metadata: { type: 'delay', metadata: { delay: '5 minutes' } }, next: 's' },
          split('s', ['a', 'b']),
          validate('a', 'l'),
          validate('b', 't'),
          { id: 'l', action_metadata: { type: 'add_chat_label', metadata: { labels: ['vip'] } }, next: 'r' },
          { id: 'r', action_metadata: { type: 'remove_chat_label', metadata: { labels: ['new'] } }, next: 'm' },
          send('m'),
          {
            id: 't',
            action_metadata: {
              type: 'create_ticket',
              metadata: { subject: 'S', status: 'open', labels: [], due_in: null, assignee: { round_robin: false, email: null } },
            },
            next: 'c',
          },
          { id: 'c', action_metadata: { type: 'close_ticket', metadata: { closing_note: 'done' } }, next: '' },
        ]),
      ),
    ).toEqual([]);
  });

  it('accepts an empty workflow (first_action_id null, no actions)', () => {
    expect(paths(def([], null))).toEqual([]);
  });

  it('names a missing first action, next and split target', () => {
    expect(paths(def([send('a')], 'zz'))).toEqual(['trigger_metadata.first_action_id: no action has id zz']);
    expect(paths(def([send('a', 'nope')]))).toEqual(['actions.0.next: no action has id nope']);
    expect(paths(def([split('s', ['v', 'gone']), validate('v')]))).toEqual([
      'actions.0.action_metadata.metadata.paths.1.condition_action_id: no action has id gone',
    ]);
    expect(paths(def([send('a')], null))).toEqual(['trigger_metadata.first_action_id: first_action_id must name the first action']);
  });

  it('a split path must lead to a validate_action', () => {
    expect(paths(def([split('s', ['m']), send('m')]))).toEqual([
      'actions.0.action_metadata.metadata.paths.0.condition_action_id: a split path leads to a validate_action; m is send_message_to_chat',
    ]);
  });

  it('refuses duplicate ids', () => {
    expect(paths(def([send('a', 'b'), send('b'), send('a')]))).toEqual(['actions.2.id: action id a is used twice']);
  });

  it('refuses cycles, a self-loop and one through a split', () => {
    expect(paths(def([send('a', 'b'), send('b', 'c'), send('c', 'a')]))).toEqual([
      'actions.2.next: action c leads back to a: the graph must not have a cycle',
    ]);
    expect(paths(def([send('a', 'a')]))).toEqual(['actions.0.next: action a leads back to a: the graph must not have a cycle']);
    expect(paths(def([split('s', ['v']), validate('v', 'm'), send('m', 's')]))).toHaveLength(1);
  });

  it('refuses a cycle among actions the first one does not reach', () => {
    expect(paths(def([send('a'), send('b', 'c'), send('c', 'b')]))).toHaveLength(1);
  });

  it('says which action types and triggers are not supported here yet, never skips them', () => {
    expect(paths(def([{ id: 'a', action_metadata: { type: 'send_email', metadata: {} }, next: null }]))).toEqual([
      'actions.0.action_metadata.type: action type send_email is not supported here yet',
    ]);
    expect(paths(def([{ id: 'a', action_metadata: { type: 'teleport', metadata: {} }, next: null }]))[0]).toMatch(
      /^actions\.0\.action_metadata\.type: action type must be one of send_message_to_chat, delay/,
    );
    expect(paths(def([], null, 'ticket.due'))).toEqual(['trigger: trigger ticket.due is not supported here yet']);
    expect(paths(def([], null, 'message.exploded'))[0]).toMatch(/^trigger: trigger must be one of message\.created/);
  });

  it("checks each action's metadata by its type, naming the field", () => {
    expect(paths(def([{ id: 'a', action_metadata: { type: 'delay', metadata: { delay: 'soon' } }, next: null }]))[0]).toMatch(
      /^actions\.0\.action_metadata\.metadata\.delay: must be a duration/,
    );
    expect(paths(def([{ id: 'a', action_metadata: { type: 'delay', metadata: { delay: '31 days' } }, next: null }]))).toEqual([
      'actions.0.action_metadata.metadata.delay: must be at most 30 days',
    ]);
    expect(
      paths(def([{ id: 'a', action_metadata: { type: 'send_message_to_chat', metadata: { chat_id: 'trigger_chat' } }, next: null }]))[0],
    ).toMatch(/^actions\.0\.action_metadata\.metadata\.message: /);
    expect(
      paths(
        def([{ id: 'a', action_metadata: { type: 'send_message_to_chat', metadata: { message: 'x', chat_id: 'nope' } }, next: null }]),
      )[0],
    ).toMatch(/^actions\.0\.action_metadata\.metadata\.chat_id: /);
    expect(paths(def([{ id: 'a', action_metadata: { type: 'add_chat_label', metadata: { labels: [] } }, next: null }]))).toEqual([
      'actions.0.action_metadata.metadata.labels: name at least one label',
    ]);
    expect(
      paths(
        def([
          {
            id: 'a',
            action_metadata: { type: 'create_ticket', metadata: { subject: 's', assignee: { round_robin: true, emails: [] } } },
            next: null,
          },
        ]),
      )[0],
    ).toMatch(/round_robin: round-robin assignment is not supported here yet/);
  });

  it('ai_prompt runs as the knowledge-base agent: agent is required, its settings and hand-over checked field by field', () => {
    const ai = (metadata: unknown): WorkflowActionInput => ({ id: 'a', action_metadata: { type: 'ai_prompt', metadata }, next: null });
    expect(paths(def([ai({ query: 'Be brief', body: '', agent: {} })]))).toEqual([]);
    expect(
      paths(
        def([
          ai({
            agent: {
              min_score: 0.5,
              max_entries: 5,
              handover: {
                ticket: { subject: 'Agent could not answer', priority: '2', labels: ['agent'], assignee: 'desk@example.com' },
                labels: ['needs-human'],
              },
            },
          }),
        ]),
      ),
    ).toEqual([]);
    expect(paths(def([ai({ agent: { handover: { ticket: null } } })]))).toEqual([]);
    // a hosted free-form prompt ({query, body} only) is refused, not turned into replies
    expect(paths(def([ai({ query: 'q', body: 'b' })]))).toEqual([
      expect.stringMatching(
        /^actions\.0\.action_metadata\.metadata\.agent: agent is required: ai_prompt runs here as the knowledge-base AI agent/,
      ),
    ]);
    expect(paths(def([ai({ agent: { min_score: 2, max_entries: 0 } })]))).toEqual([
      'actions.0.action_metadata.metadata.agent.min_score: min_score is at most 1',
      'actions.0.action_metadata.metadata.agent.max_entries: max_entries is at least 1',
    ]);
    expect(paths(def([ai({ agent: { handover: { labels: [], ticket: { priority: '9', assignee: 'nobody' } } } })]))).toEqual([
      "actions.0.action_metadata.metadata.agent.handover.ticket.priority: priority must be one of '0'..'4'",
      'actions.0.action_metadata.metadata.agent.handover.ticket.assignee: assignee must be an email',
      'actions.0.action_metadata.metadata.agent.handover.labels: name at least one label',
    ]);
    expect(paths(def([ai({ query: 5, agent: { handover: 'ticket' } })]))).toEqual([
      'actions.0.action_metadata.metadata.query: query must be a string',
      'actions.0.action_metadata.metadata.agent.handover: handover must be an object {ticket?, labels?}',
    ]);
  });

  it('checks conditions leaf by leaf, at any depth, and bounds the depth', () => {
    const bad = {
      id: 'v',
      action_metadata: {
        type: 'validate_action',
        metadata: {
          operator: 'AND',
          conditions: [
            {
              operator: 'OR',
              conditions: [
                {
                  id: 'c',
                  variable_name: 'message.timestamp',
                  variable_type: 'time',
                  condition: 'LESS_THAN',
                  value: '25:00',
                  timezone: 'Mars/Olympus',
                },
              ],
            },
          ],
        },
      },
      next: null,
    };
    expect(paths(def([bad]))).toEqual([
      'actions.0.action_metadata.metadata.conditions.0.conditions.0.timezone: timezone must be an IANA time zone, e.g. Asia/Kolkata',
      'actions.0.action_metadata.metadata.conditions.0.conditions.0.value: value must be a time of day HH:mm or HH:mm:ss',
    ]);
    expect(
      paths(def([{ id: 'v', action_metadata: { type: 'validate_action', metadata: { operator: 'XOR', conditions: [] } }, next: null }])),
    ).toEqual(['actions.0.action_metadata.metadata.operator: operator must be AND or OR']);
    let deep: Record<string, unknown> = { operator: 'AND', conditions: [] };
    for (let i = 0; i < 6; i++) deep = { operator: 'AND', conditions: [deep] };
    expect(paths(def([{ id: 'v', action_metadata: { type: 'validate_action', metadata: deep }, next: null }]))[0]).toMatch(
      /condition groups nest at most 5 deep/,
    );
  });
});

describe('CreateWorkflowBody', () => {
  it('takes an exported WorkflowType row unchanged (its id, org_id and timestamps ignored)', () => {
    const exported = {
      id: 'workflow-1',
      org_id: 'x',
      created_at: '2025-01-01',
      updated_at: '2025-01-01',
      updated_by: 'someone',
      deleted_at: null,
      is_active: true,
      name: 'Urgent auto-reply',
      trigger: 'message.created',
      trigger_metadata: { org_phones: ['phone-1'], allow_internal_messages: false, first_action_id: 'v' },
      actions: [validate('v', 'm', 'urgent'), send('m')],
    };
    const parsed = CreateWorkflowBody.parse(exported);
    expect(parsed).toEqual({
      name: 'Urgent auto-reply',
      trigger: 'message.created',
      trigger_metadata: exported.trigger_metadata,
      actions: exported.actions,
      is_active: true,
    });
  });

  it('reports graph issues at their body paths', () => {
    const r = CreateWorkflowBody.safeParse({
      name: 'x',
      trigger: 'message.created',
      trigger_metadata: { first_action_id: 'a' },
      actions: [send('a', 'b')],
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['actions.0.next', 'no action has id b']]);
  });
});
