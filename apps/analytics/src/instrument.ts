// Loaded first by main.ts: OpenTelemetry must patch http and pg before anything imports them.
import { startTelemetry } from '@mapi/platform/telemetry';

startTelemetry('analytics');
