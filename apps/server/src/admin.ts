import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import { createContainer, type Container } from './container.js';
import { commands } from './cli/commands.js';

/**
 * Operations CLI: `npm run admin -- <command> [--flag value]`. Runs against the configured database
 * (DATABASE_URL, or the embedded PGlite under DATA_DIR). The embedded database is locked by a running server:
 * the CLI then refuses (exit 1) rather than writing to files the server would overwrite.
 */
async function main() {
  const [name, ...rest] = process.argv.slice(2);
  const command = name ? commands[name] : undefined;
  if (!command) {
    console.log('用法: npm run admin -- <命令> [参数]\n');
    for (const [n, c] of Object.entries(commands)) console.log(`  ${n.padEnd(22)} ${c.description}\n  ${''.padEnd(22)} ${c.usage}`);
    process.exit(name ? 1 : 0);
  }
  let container: Container | undefined;
  try {
    const names = command.positionals ?? [];
    const { values, positionals } = parseArgs({ args: rest, options: command.options, allowPositionals: names.length > 0, strict: true });
    if (positionals.length > names.length) throw new Error(`多余的参数：${positionals.slice(names.length).join(' ')}`);
    for (const [i, v] of positionals.entries()) (values as Record<string, unknown>)[names[i]!] = v;
    container = await createContainer({ ...loadConfig(), LOG_LEVEL: 'warn' });
    const result = await command.run(container, values as Record<string, string | boolean | undefined>);
    // Success is reported only once the database has been closed cleanly (PGlite flushes on close).
    const opened = container;
    container = undefined;
    await opened.close();
    console.log(typeof result === 'string' ? result : JSON.stringify(result, null, 2));
  } catch (err) {
    console.error(err instanceof ConfigError || err instanceof Error ? err.message : err);
    process.exitCode = 1;
  } finally {
    await container?.close().catch(() => undefined);
  }
}

// main catches its own failures (exit code 1); nothing is left to reject.
void main();
