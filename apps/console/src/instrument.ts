// Loaded first by main.ts: OpenTelemetry must patch http before anything imports it (the proxy's
// requests and the server's answers are measured like every app's).
import { startTelemetry } from '@mapi/platform/telemetry';

startTelemetry('console');
