import { ConfigError, loadConfig } from './config.js';
import { createContainer } from './container.js';
import { buildApp } from './app.js';
import { connectionDrainOf } from './http/connection-drain.js';
import { StartupError } from './db/client.js';
import { isLoopbackUrl } from './sandbox-guard.js';
import { startBanner } from './start-banner.js';
import { collectStartupGarbage } from './startup-gc.js';

/** Everything stops within this after SIGTERM/SIGINT (orchestrators kill at 10 s); what still hangs is cut off. */
const SHUTDOWN_DEADLINE_MS = 9_000;

async function main() {
  let config;
  let container;
  try {
    config = loadConfig();
    // Some settings (FEATURES_FILE, vendor keys) are only checked while wiring.
    container = await createContainer(config);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof StartupError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const app = await buildApp(container);
  const drain = connectionDrainOf(app);
  let stopping = false;
  await container.startJobs();
  await app.listen({ port: config.PORT, host: config.HOST });
  // What PGlite's initdb left behind is garbage now: give it back to the system instead of keeping it resident.
  if (container.database.kind === 'pglite') collectStartupGarbage();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://localhost:${port}`;
  console.log(startBanner(config, { url, database: container.database.kind, searchEnabled: container.writing.search.enabled, demo: container.demo }));
  // Anyone who reaches the outbox can read every login code: fine on a laptop, not on a public server. (In production
  // a public address with sandboxes does not start at all, see sandbox-guard.ts.)
  if (container.integrations.sms.sandbox && !isLoopbackUrl(container.publicUrl)) {
    container.log.warn('短信发件箱已启用而 PUBLIC_URL 不是本机地址：任何能访问 /api/dev/sms-outbox 的人都能读到登录验证码。对外开放前请配置真实短信服务商（SMS_PROVIDER）。');
  }

  /**
   * Graceful stop (http/connection-drain.ts): connections the kernel has already accepted are taken in, then no new
   * ones; requests already being served finish with their normal reply (and `Connection: close`); a connection counts
   * as busy from its accept, so a request still unread in its buffers is not cut; requests arriving meanwhile on open
   * connections (kept-alive ones included, which stay open) get the 服务正在重启 envelope (http/framework-errors.ts);
   * running writing tasks are put back in the queue (resumed after restart, not failed, not refunded) and their event
   * streams end. Once no connection is busy, or after the drain's 5 s, the connections, the app, the job queue and
   * the database close. A second signal, or the deadline, exits at once.
   */
  const shutdown = async (signal: string) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    setTimeout(() => {
      app.log.error({ inflight: drain.size }, `shutdown did not finish within ${SHUTDOWN_DEADLINE_MS} ms: exiting`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    app.log.info({ signal, inflight: drain.size, busyConnections: drain.busyConnections() }, 'shutting down');
    try {
      drain.begin();
      drain.closeAfterReplies();
      await drain.stopAccepting();
      await container.writing.shutdown();
      await drain.drained();
      app.server.closeAllConnections();
      await app.close();
      await container.close();
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

// A start-up failure past configuration (buildApp, listen: a port in use) says what failed and exits 1 instead of
// surfacing as an unhandled rejection.
main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
