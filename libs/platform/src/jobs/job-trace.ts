import { context, propagation, type Context } from '@opentelemetry/api';

/**
 * W3C trace context carried inside a queued job's data (BullMQ jobs have no headers), so the worker
 * that runs the job continues the trace of the request that enqueued it.
 */
export interface JobTraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/** The active trace context as `{ traceparent, tracestate }`, to store in the job's data. */
export function injectJobTrace(ctx: Context = context.active()): JobTraceCarrier {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  const out: JobTraceCarrier = {};
  if (carrier.traceparent) out.traceparent = carrier.traceparent;
  if (carrier.tracestate) out.tracestate = carrier.tracestate;
  return out;
}

/** The context a job's carrier names (the active context when it carries none), to run the job in. */
export function extractJobTrace(carrier: JobTraceCarrier | undefined | null): Context {
  const headers: Record<string, string> = {};
  if (carrier?.traceparent) headers.traceparent = carrier.traceparent;
  if (carrier?.tracestate) headers.tracestate = carrier.tracestate;
  return propagation.extract(context.active(), headers);
}
