/**
 * OpenSSL's line for a TLS alert the broker sent about our client certificate (or its absence), e.g.
 * `802C…:error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required:../deps/…:1601:SSL alert number 116`.
 */
const CLIENT_CERT_ALERT =
  /[0-9A-F]+:error:[0-9A-F]+:SSL routines:\w+:((?:tlsv13|tlsv1|sslv3) alert (?:certificate required|bad certificate|unknown ca|certificate unknown|certificate expired|certificate revoked|access denied)):\S*?(?:SSL alert number \d+|(?=\s|$))/i;
/** Node's reasons for not trusting the broker's certificate. */
const SERVER_UNTRUSTED =
  /self[- ]signed certificate|unable to verify the first certificate|unable to get (local )?issuer certificate|certificate has expired|certificate is not yet valid/i;

/**
 * A broker connection's failure as the delivery log shows it, with a TLS failure said in words: a client
 * certificate the broker refused (OpenSSL's raw line replaced) or a broker certificate we do not trust
 * (what to give appended). Any other message is answered as it is. The errors never hold the PEMs.
 */
export function explainTlsError(message: string): string {
  const refused = message.replace(
    CLIENT_CERT_ALERT,
    (_, alert: string) =>
      `the broker refused our client certificate at the TLS handshake (${alert.toLowerCase()}): give tlsCert and tlsKey issued by a CA it trusts`,
  );
  if (refused !== message) return refused;
  if (SERVER_UNTRUSTED.test(message))
    return `${message} (TLS: the broker's certificate is not trusted: give the CA that issued it as tlsCa)`;
  return message;
}
