import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** Headers of one hop only (RFC 9110 7.6.1): never forwarded. `upgrade`/`connection` are set again for websockets. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
];

export interface ProxyTarget {
  /** The gateway's base URL, e.g. http://127.0.0.1:8080. */
  base: URL;
  /** How long to wait for the gateway's answer to start (socket.io's long polls wait 25 s). */
  timeoutMs: number;
}

/** The path on the gateway: /v1/socket.io/… is the gateway's /socket.io/… (the session cookie's Path is /v1). */
export function upstreamPath(url: string): string {
  return url.startsWith('/v1/socket.io/') || url === '/v1/socket.io' ? url.slice(3) : url;
}

function forwardedHeaders(req: IncomingMessage, upgrade: boolean): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.includes(name)) headers[name] = value;
  }
  const client = req.socket.remoteAddress ?? '';
  const prior = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = prior ? `${prior}, ${client}` : client;
  headers['x-forwarded-proto'] = (req.headers['x-forwarded-proto'] as string | undefined) ?? 'http';
  headers['x-forwarded-host'] = (req.headers['x-forwarded-host'] as string | undefined) ?? req.headers.host ?? '';
  if (upgrade) {
    headers.connection = 'Upgrade';
    headers.upgrade = req.headers.upgrade ?? 'websocket';
  }
  return headers;
}

/** The spec's error envelope, so the console (and anyone calling /v1 through it) sees one shape. */
function sendUnavailable(res: ServerResponse): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(502, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ code: 'SERVICE_UNAVAILABLE_ERROR', status: 502, message: 'The API gateway did not answer; retry shortly' }));
}

/** Forwards one HTTP request to the gateway, streaming both bodies. */
export function proxyRequest(target: ProxyTarget, req: IncomingMessage, res: ServerResponse): void {
  const upstream = httpRequest(
    {
      host: target.base.hostname,
      port: target.base.port || 80,
      method: req.method,
      path: upstreamPath(req.url ?? '/'),
      headers: forwardedHeaders(req, false),
    },
    (answer) => {
      const headers = { ...answer.headers };
      for (const name of HOP_BY_HOP) delete headers[name];
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    },
  );
  upstream.setTimeout(target.timeoutMs, () => upstream.destroy(new Error('gateway timeout')));
  upstream.on('error', () => sendUnavailable(res));
  req.on('aborted', () => upstream.destroy());
  req.pipe(upstream);
}

/** Forwards a websocket upgrade (the realtime socket) and then pipes the two connections together. */
export function proxyUpgrade(target: ProxyTarget, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const upstream = httpRequest({
    host: target.base.hostname,
    port: target.base.port || 80,
    method: req.method,
    path: upstreamPath(req.url ?? '/'),
    headers: forwardedHeaders(req, true),
  });
  const refuse = () => socket.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
  upstream.setTimeout(target.timeoutMs, () => upstream.destroy(new Error('gateway timeout')));
  upstream.on('error', refuse);
  upstream.on('response', (answer) => {
    // The gateway refused the upgrade (e.g. 400/401): pass its answer on and close.
    const lines = [
      `HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}`,
      ...Object.entries(answer.headers).map(([k, v]) => `${k}: ${v}`),
      'connection: close',
      '',
      '',
    ];
    socket.write(lines.join('\r\n'));
    answer.pipe(socket);
  });
  upstream.on('upgrade', (answer, gateway, gatewayHead) => {
    upstream.setTimeout(0);
    const lines = [
      `HTTP/1.1 101 Switching Protocols`,
      ...Object.entries(answer.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => `${k}: ${x}`) : [`${k}: ${v}`])),
      '',
      '',
    ];
    socket.write(lines.join('\r\n'));
    if (gatewayHead.length) socket.write(gatewayHead);
    if (head.length) gateway.write(head);
    gateway.pipe(socket).pipe(gateway);
    const close = () => {
      gateway.destroy();
      socket.destroy();
    };
    gateway.on('error', close).on('close', close);
    socket.on('error', close).on('close', close);
  });
  socket.on('error', () => upstream.destroy());
  upstream.end();
}
