import type { WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';

/**
 * Closes a spool file's stream and removes the file. A write stream opens its file asynchronously: removing the file
 * before the stream has closed can race the open(O_CREAT) and leave an empty file behind, so wait for 'close' first.
 */
export async function discardSpool(out: WriteStream, file: string): Promise<void> {
  if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()).destroy());
  await rm(file, { force: true });
}
