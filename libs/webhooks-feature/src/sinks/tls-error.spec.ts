import { explainTlsError } from './tls-error';

describe('explainTlsError', () => {
  it("says in words that the broker refused the client certificate, keeping what came before OpenSSL's line", () => {
    const raw =
      'Connection error: 802C07BF4F7F0000:error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 116';
    expect(explainTlsError(raw)).toBe(
      'Connection error: the broker refused our client certificate at the TLS handshake (tlsv13 alert certificate required): give tlsCert and tlsKey issued by a CA it trusts',
    );
    expect(explainTlsError('80:error:0A000412:SSL routines:ssl3_read_bytes:sslv3 alert bad certificate:x.c:1:SSL alert number 42')).toMatch(
      /^the broker refused our client certificate at the TLS handshake \(sslv3 alert bad certificate\)/,
    );
  });

  it("adds what to give when the broker's certificate is not trusted, and leaves other failures alone", () => {
    expect(explainTlsError('self-signed certificate in certificate chain')).toBe(
      "self-signed certificate in certificate chain (TLS: the broker's certificate is not trusted: give the CA that issued it as tlsCa)",
    );
    expect(explainTlsError('unable to verify the first certificate')).toMatch(/give the CA that issued it as tlsCa\)$/);
    expect(explainTlsError('connect ECONNREFUSED 127.0.0.1:5671')).toBe('connect ECONNREFUSED 127.0.0.1:5671');
    expect(explainTlsError('Handshake terminated by server: 403 (ACCESS-REFUSED)')).toBe(
      'Handshake terminated by server: 403 (ACCESS-REFUSED)',
    );
  });
});
