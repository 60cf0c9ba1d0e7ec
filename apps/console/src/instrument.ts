// Loaded first by main.ts: OpenTelemetry must patch http before anything imports it, so the proxy's
// requests are traced (when OTEL_EXPORTER_OTLP_ENDPOINT is set). The console has no metrics of its own.
import { startTelemetry } from '@mapi/platform/telemetry';

startTelemetry('console');
