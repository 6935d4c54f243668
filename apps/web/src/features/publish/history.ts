import { LS, lsGet, lsSet } from '../../lib/storage-keys';

export interface PublishHistoryItem {
  publishId: string;
  title: string;
  accountIds: number[];
  createdAt: string;
}

const MAX_ITEMS = 50;

/**
 * The server answers results by publish id but has no per-user list of publishes, so this
 * browser remembers the ids it started; the operation board reads them per account.
 */
export function readPublishHistory(): PublishHistoryItem[] {
  try {
    const parsed: unknown = JSON.parse(lsGet(LS.publishHistory) ?? '[]');
    return Array.isArray(parsed) ? (parsed as PublishHistoryItem[]).filter((x) => typeof x?.publishId === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberPublish(item: PublishHistoryItem): void {
  const rest = readPublishHistory().filter((x) => x.publishId !== item.publishId);
  lsSet(LS.publishHistory, JSON.stringify([item, ...rest].slice(0, MAX_ITEMS)));
}
