/**
 * The "Price bot" workflow of the e2e specs (automation, Cloud API): a customer's message containing
 * "price" is answered with `reply` in its chat, then (with `label`) the chat is labelled.
 */
export function priceBotWorkflow(reply: string, options: { label?: string } = {}) {
  return {
    name: 'Price bot',
    trigger: 'message.created',
    trigger_metadata: { org_phones: [], allow_internal_messages: false, first_action_id: 'asks-price' },
    actions: [
      {
        id: 'asks-price',
        action_metadata: {
          type: 'validate_action',
          metadata: {
            operator: 'AND',
            conditions: [{ id: 'c1', variable_name: 'message.body', variable_type: 'string', condition: 'CONTAINS', value: 'price' }],
          },
        },
        next: 'reply',
      },
      {
        id: 'reply',
        action_metadata: { type: 'send_message_to_chat', metadata: { message: reply, chat_id: 'trigger_chat' } },
        next: options.label ? 'label' : null,
      },
      ...(options.label
        ? [{ id: 'label', action_metadata: { type: 'add_chat_label', metadata: { labels: [options.label] } }, next: null }]
        : []),
    ],
  };
}
