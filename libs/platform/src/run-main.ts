/** Runs an app's bootstrap; a failure to start is printed (without secrets) and exits non-zero. */
export function runMain(name: string, bootstrap: () => Promise<unknown>): void {
  bootstrap().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${JSON.stringify({ level: 'fatal', service: name, msg: `failed to start: ${message}` })}\n`);
    process.exit(1);
  });
}
