import type { RouteContract } from '../../http/define-route';
import { CreateEventSinksRoute } from '../create-event-sinks/create-event-sinks.contract';
import { DeleteEventSinkRoute } from '../delete-event-sink/delete-event-sink.contract';
import { GetEventSinkRoute } from '../get-event-sink/get-event-sink.contract';
import { ListEventSinkAttemptsRoute } from '../list-event-sink-attempts/list-event-sink-attempts.contract';
import { ListEventSinksRoute } from '../list-event-sinks/list-event-sinks.contract';
import { RedeliverEventSinkRoute } from '../redeliver-event-sink/redeliver-event-sink.contract';
import { ReplayEventSinkRoute } from '../replay-event-sink/replay-event-sink.contract';
import { UpdateEventSinkRoute } from '../update-event-sink/update-event-sink.contract';

export * from './event-sink.schema';
export * from '../create-event-sinks/create-event-sinks.contract';
export * from '../list-event-sinks/list-event-sinks.contract';
export * from '../get-event-sink/get-event-sink.contract';
export * from '../update-event-sink/update-event-sink.contract';
export * from '../delete-event-sink/delete-event-sink.contract';
export * from '../list-event-sink-attempts/list-event-sink-attempts.contract';
export * from '../replay-event-sink/replay-event-sink.contract';
export * from '../redeliver-event-sink/redeliver-event-sink.contract';

/** /v1/event-sinks (issue 36): webhook subscriptions with another transport, the same use cases and tables. */
export const EVENT_SINK_ROUTES: readonly RouteContract[] = [
  ListEventSinksRoute,
  CreateEventSinksRoute,
  GetEventSinkRoute,
  UpdateEventSinkRoute,
  DeleteEventSinkRoute,
  ListEventSinkAttemptsRoute,
  ReplayEventSinkRoute,
  RedeliverEventSinkRoute,
];
