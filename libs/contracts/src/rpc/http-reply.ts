/**
 * A service answer that sets the HTTP status itself: for the few operations whose failures are not
 * the error envelope (spec 7: media migration answers `{ error }`), or whose success status varies
 * (201 created vs 200). The transport sends the status in a header; the gateway uses it instead of
 * the route's success status and passes the body through.
 */
export class HttpReply<T = unknown> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}

export const RPC_HTTP_STATUS_HEADER = 'x-rpc-http-status';
