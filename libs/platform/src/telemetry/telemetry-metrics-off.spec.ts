import type { AddressInfo } from 'node:net';
import { startHealthServer } from '../health/health';
import { resetMetricsReader } from './metrics';
import { startTelemetry, stopTelemetry } from './telemetry';

describe('startTelemetry with METRICS_ENABLED=false', () => {
  const saved = process.env.METRICS_ENABLED;
  beforeAll(() => {
    resetMetricsReader();
    process.env.METRICS_ENABLED = 'false';
    startTelemetry('telemetry-off-spec');
  });
  afterAll(async () => {
    await stopTelemetry();
    if (saved === undefined) delete process.env.METRICS_ENABLED;
    else process.env.METRICS_ENABLED = saved;
  });

  it('collects nothing: GET /metrics of the health server is a 404 (the baseline of the metrics-cost bench)', async () => {
    const server = await startHealthServer({ host: '127.0.0.1', port: 0, indicators: [] });
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`);
      expect(res.status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
