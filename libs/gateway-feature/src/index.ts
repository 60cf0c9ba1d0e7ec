export * from './bootstrap';
export * from './gateway-runtime';
export * from './auth/ttl-cache';
export * from './rate-limit/rate-limiter';
