// Loaded first by main.ts: OpenTelemetry must patch http, pg and ioredis before anything imports them.
import { startTelemetry } from '@mapi/platform/telemetry';

// The gateway makes its own server span per request (traceIncomingRequests, bootstrap.ts), lighter than the http
// instrumentation's (docs/decisions/0071-gateway-fixed-cost-per-request.md; docs/benchmarks.md, "Gateway fixed cost per request").
startTelemetry('api-gateway', { incomingHttpSpans: false });
