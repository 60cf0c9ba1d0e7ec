/** A failure the admin user can act on: its message is printed as is, without a stack trace. */
export class AdminError extends Error {
  override readonly name = 'AdminError';
}

export function isAdminError(error: unknown): error is AdminError {
  return error instanceof AdminError;
}
