import { PhoneSchema } from '../../phones/phone/phone.schema';
import { defineEvent } from '../define-event';

// Every phone event carries the whole phone object as it is after the change.

export const PhoneUpdatedEvent = defineEvent({
  name: 'org.phone.updated',
  subject: 'events.v1.org.phone.updated',
  summary: "A phone's name, image or labels changed (PATCH /phones/update), or another state change.",
  data: PhoneSchema,
});

export const PhoneConnectedEvent = defineEvent({
  name: 'org.phone.connected',
  subject: 'events.v1.org.phone.connected',
  summary: 'A phone connected to the network (wa_state CONNECTED).',
  data: PhoneSchema,
});

export const PhoneDisconnectedEvent = defineEvent({
  name: 'org.phone.disconnected',
  subject: 'events.v1.org.phone.disconnected',
  summary: 'A phone disconnected, became unreachable, was logged out, banned or deleted.',
  data: PhoneSchema,
});

export const PhoneQrEvent = defineEvent({
  name: 'org.phone.qr',
  subject: 'events.v1.org.phone.qr',
  summary: 'A phone waits to be paired: qr_code holds a new QR to scan.',
  data: PhoneSchema,
});
