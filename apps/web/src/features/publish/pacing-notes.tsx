import { Alert } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { BoundAccount } from '../../api/publish';
import { publishApi } from '../../api/publish';
import { queryKeys } from '../../api/query-keys';
import { pacingHint, scheduleConflict } from './pacing';

/**
 * For chosen accounts whose platform paces publishing (小红书 mutes accounts that post in bursts): when each may
 * publish next, the rule, and a warning when the picked schedule time is earlier (the server would refuse it).
 */
export function PacingNotes({ accounts, scheduleAt }: { accounts: BoundAccount[]; scheduleAt: Date | null }) {
  const ids = accounts.map((a) => a.id);
  // Read again each minute while the dialog is open, so "now" and the slot stay current.
  const slots = useQuery({ queryKey: queryKeys.publish.nextSlot(ids), queryFn: () => publishApi.nextSlot(ids), enabled: ids.length > 0, refetchInterval: 60_000 });
  const now = slots.dataUpdatedAt;
  const paced = (slots.data?.slots ?? []).filter((s) => s.dailyCap !== null);
  if (!paced.length) return null;
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const who = (accountId: number) => (paced.length === 1 ? '该账号' : `账号「${byId.get(accountId)?.accountName ?? accountId}」`);
  const name = (accountId: number) => byId.get(accountId)?.platformName || byId.get(accountId)?.platform || '';
  const conflicts = paced.map((s) => scheduleConflict(who(s.accountId), s, scheduleAt, now)).filter((c): c is string => c !== null);
  return (
    <>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        data-testid="publish-pacing"
        title={
          <ul className="problem-list">
            {paced.map((s) => (
              <li key={s.accountId}>{pacingHint(who(s.accountId), name(s.accountId), s, now)}</li>
            ))}
          </ul>
        }
      />
      {conflicts.length ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="publish-pacing-conflict"
          title={
            <ul className="problem-list">
              {conflicts.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          }
        />
      ) : null}
    </>
  );
}
