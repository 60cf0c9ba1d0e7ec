export * from './bootstrap';
export * from './auth/ttl-cache';
export * from './rate-limit/rate-limiter';
