import { ConfigError, loadConfig } from './config.js';
import { createContainer } from './container.js';
import { buildApp } from './app.js';

async function main() {
  let config;
  let container;
  try {
    config = loadConfig();
    // Some settings (FEATURES_FILE, vendor keys) are only checked while wiring.
    container = await createContainer(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const app = await buildApp(container);
  // Only processes with the worker (or publisher: browser jobs) role run jobs; web-only processes just enqueue them.
  if (config.ROLES.split(',').map((r) => r.trim()).some((r) => r === 'worker' || r === 'publisher')) await container.jobs.start();
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://localhost:${port}`;
  console.log(`\n  砚 Inkstone is running at ${url}  (database: ${container.database.kind})`);
  if (container.sandboxes.length) console.log(`  Running on embedded sandboxes (nothing leaves this machine): ${container.sandboxes.join(', ')}`);
  if (container.integrations.sms.sandbox) {
    console.log(`  SMS codes appear in the server log and at ${url}/api/dev/sms-outbox/page`);
    // Anyone who reaches the outbox can read every login code: fine on a laptop, not on a public server.
    if (!container.publicUrl.startsWith('http://localhost') && !container.publicUrl.startsWith('http://127.')) {
      container.log.warn('SMS_PROVIDER is the outbox while PUBLIC_URL is not local: anyone reaching /api/dev/sms-outbox can read login codes. Configure a real SMS vendor before exposing this server.');
    }
  }
  console.log(`  API docs: ${url}/api/docs\n`);

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await container.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

void main();
