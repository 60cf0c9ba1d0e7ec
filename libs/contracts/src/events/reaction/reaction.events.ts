import { defineEvent } from '../define-event';
import { ReactionSchema } from './reaction.schema';

export const ReactionCreatedEvent = defineEvent({
  name: 'reaction.created',
  subject: 'events.v1.reaction.created',
  summary: 'A sender reacted to a message for the first time.',
  data: ReactionSchema,
});

export const ReactionUpdatedEvent = defineEvent({
  name: 'reaction.updated',
  subject: 'events.v1.reaction.updated',
  summary: "A sender changed their reaction to a message, or took it back (reaction '').",
  data: ReactionSchema,
});
