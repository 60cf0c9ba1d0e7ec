// Loaded first by main.ts: OpenTelemetry must patch http, pg and ioredis before anything imports them.
import { startTelemetry } from '@mapi/platform/telemetry';

startTelemetry('phones');
