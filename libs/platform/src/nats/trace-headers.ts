import { context, propagation, type Context, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import type { MsgHdrs } from 'nats';

const setter: TextMapSetter<MsgHdrs> = { set: (carrier, key, value) => carrier.set(key, value) };
const getter: TextMapGetter<MsgHdrs | undefined> = {
  keys: (carrier) => (carrier ? carrier.keys() : []),
  get: (carrier, key) => (carrier?.has(key) ? carrier.get(key) : undefined),
};

/** Writes the active trace context (W3C traceparent/tracestate) into NATS headers. */
export function injectTraceContext(headers: MsgHdrs, ctx: Context = context.active()): void {
  propagation.inject(ctx, headers, setter);
}

/** The trace context a NATS message carries, to continue the caller's trace. */
export function extractTraceContext(headers: MsgHdrs | undefined): Context {
  return propagation.extract(context.active(), headers, getter);
}
