// Loaded first by main.ts: OpenTelemetry must patch http, pg and ioredis before anything imports them.
import { startTelemetry } from '@mapi/platform/telemetry';

// The gateway makes its own server span per request (traceIncomingRequests, bootstrap.ts): the
// http instrumentation's was ≈ 5 % of its CPU per request (docs/decisions.md, "Gateway fixed cost per request").
startTelemetry('api-gateway', { incomingHttpSpans: false });
