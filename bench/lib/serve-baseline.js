'use strict';
/**
 * The shared tail of the benches' one-process baseline servers (bench/messages/baseline-server.js,
 * bench/chats/baseline-server.js): listen on PORT/HOST, tell the parent the port on stdout
 * (`listening <port>`), close the app and `release` on SIGTERM/SIGINT (a second signal exits at once),
 * and report a failed start on stderr with exit code 1.
 */
async function serveBaseline(app, release) {
  await app.listen({ port: Number(process.env.PORT || 0), host: process.env.HOST || '127.0.0.1' });
  process.stdout.write(`listening ${app.server.address().port}\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(1);
    stopping = true;
    await app.close().catch(() => undefined);
    await release().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function runBaseline(main) {
  main().catch((error) => {
    process.stderr.write(`baseline failed: ${error && error.stack ? error.stack : error}\n`);
    process.exit(1);
  });
}

module.exports = { serveBaseline, runBaseline };
