import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { privateDir, removeDir } from './owned-process';

/** PEMs for TLS tests: a CA, a server certificate (localhost, 127.0.0.1) and client certificates, one not from the CA. */
export interface TestCertificates {
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** Self-signed: a client certificate the CA never issued. */
  rogueCert: string;
  rogueKey: string;
}

/** Made with the openssl CLI in a temporary directory (removed after): EC P-256 keys, valid one day. */
export function testCertificates(): TestCertificates {
  const dir = privateDir('mapi-certs');
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  try {
    run('req', '-x509', ...key, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=mapi test CA');
    writeFileSync(join(dir, 'server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
    for (const [name, cn] of [
      ['server', 'localhost'],
      ['client', 'crm'],
    ]) {
      run('req', ...key, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`);
      const ext = name === 'server' ? ['-extfile', 'server.ext'] : [];
      run(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        `${name}.pem`,
        '-days',
        '1',
        ...ext,
      );
    }
    run('req', '-x509', ...key, '-keyout', 'rogue.key', '-out', 'rogue.pem', '-days', '1', '-subj', '/CN=crm');
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    return {
      ca: read('ca.pem'),
      serverCert: read('server.pem'),
      serverKey: read('server.key'),
      clientCert: read('client.pem'),
      clientKey: read('client.key'),
      rogueCert: read('rogue.pem'),
      rogueKey: read('rogue.key'),
    };
  } finally {
    removeDir(dir);
  }
}

/**
 * A TLS listener on 127.0.0.1 that requires a client certificate from `certs.ca` and pipes each accepted
 * connection to 127.0.0.1:`targetPort`: what a Kafka broker with ssl.client.auth=required does at the
 * handshake, for a test broker without TLS (PrivateKafkaMock). A refused certificate never reaches it.
 */
export class KafkaTlsFront {
  private constructor(
    private readonly server: Server,
    private readonly open: Set<{ destroy(): void }>,
  ) {}

  static async start(targetPort: number, certs: TestCertificates): Promise<KafkaTlsFront> {
    const open = new Set<{ destroy(): void }>();
    const server = createServer(
      { key: certs.serverKey, cert: certs.serverCert, ca: certs.ca, requestCert: true, rejectUnauthorized: true, maxVersion: 'TLSv1.2' },
      (socket) => {
        const upstream = connect(targetPort, '127.0.0.1');
        open.add(socket).add(upstream);
        socket.once('close', () => (open.delete(socket), upstream.destroy()));
        upstream.once('close', () => (open.delete(upstream), socket.destroy()));
        socket.pipe(upstream).pipe(socket);
        socket.on('error', () => upstream.destroy());
        upstream.on('error', () => socket.destroy());
      },
    );
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new KafkaTlsFront(server, open);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.open) s.destroy();
    return closed;
  }
}
