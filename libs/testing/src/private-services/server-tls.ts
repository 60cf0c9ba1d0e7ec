import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A TLS listener of a private broker (PEM texts): its certificate and key, and the CA whose client
 * certificates it requires (every client must present one; see testCertificates for a set).
 */
export interface ServerTls {
  ca: string;
  cert: string;
  key: string;
}

/** Writes the PEMs into `dir` (tls-ca.pem, tls-cert.pem, tls-key.pem) for a broker's configuration; answers the paths. */
export function writeServerTls(dir: string, tls: ServerTls): { ca: string; cert: string; key: string } {
  const paths = { ca: join(dir, 'tls-ca.pem'), cert: join(dir, 'tls-cert.pem'), key: join(dir, 'tls-key.pem') };
  writeFileSync(paths.ca, tls.ca);
  writeFileSync(paths.cert, tls.cert);
  writeFileSync(paths.key, tls.key, { mode: 0o600 });
  return paths;
}
