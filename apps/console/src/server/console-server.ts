import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Asset } from './assets';
import { proxyRequest, proxyUpgrade, type ProxyTarget } from './proxy';

/** Where the console's pages are served; the SPA's routes live below it. */
export const BASE = '/console/';

/**
 * Only this origin: the bundle, the API and the realtime socket are all served from here. Inline
 * scripts are never needed; the QR is an image from a data: URL.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

function sendAsset(req: IncomingMessage, res: ServerResponse, asset: Asset, cache: string): void {
  const gzip = asset.gzipped && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = gzip && asset.gzipped ? asset.gzipped : asset.body;
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': asset.type,
    'content-length': body.length,
    'cache-control': cache,
    vary: 'accept-encoding',
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The request's path, percent-decoded; null when an escape in it is malformed. */
function decodedPath(url: string): string | null {
  try {
    return decodeURIComponent(url.split('?')[0]);
  } catch {
    return null;
  }
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
  res.end('Not found');
}

/**
 * The console's HTTP server: the built pages under /console/ (any other path below it is a page of
 * the single-page app: index.html), / redirects there, and /v1/* (with the realtime socket at
 * /v1/socket.io/) goes to the gateway, so the browser talks to one origin and the SameSite=Strict
 * session cookie (Path=/v1) goes with every API call and the socket's handshake. With `media`,
 * /app/media/* (the media links) goes to the media app, as the Ingress does.
 */
export function createConsoleServer(options: { assets: Map<string, Asset>; gateway: ProxyTarget; media?: ProxyTarget }): Server {
  const { assets, gateway, media } = options;
  const index = assets.get('index.html');
  if (!index) throw new Error('the console has no index.html');
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?')) return proxyRequest(gateway, req, res);
    // Message files, as the Ingress sends /app/media to the media app: the links the API makes
    // (MEDIA_BASE_URL = this origin) then load under the pages' CSP (img/media 'self').
    if (media && url.startsWith('/app/media/')) return proxyRequest(media, req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', ...SECURITY_HEADERS });
      return void res.end();
    }
    const path = decodedPath(url);
    if (path === null) return notFound(res); // a malformed escape (`%E0`) names no page
    if (path === '/' || path === '/console') {
      res.writeHead(302, { location: BASE });
      return void res.end();
    }
    if (!path.startsWith(BASE)) return notFound(res);
    const file = path.slice(BASE.length);
    const asset = assets.get(file);
    if (asset && file !== 'index.html')
      return sendAsset(req, res, asset, asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    // A missing hashed file is a 404 (a stale page must not get HTML for its script).
    if (file.startsWith('assets/')) return notFound(res);
    sendAsset(req, res, index, 'no-cache');
  });
  server.on('upgrade', (req, socket, head) => {
    if ((req.url ?? '').startsWith('/v1/socket.io/')) return proxyUpgrade(gateway, req, socket, head);
    socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
  });
  // socket.io's long polls and websockets stay open; keep-alive for the browser's many small calls.
  server.keepAliveTimeout = 65_000;
  return server;
}
