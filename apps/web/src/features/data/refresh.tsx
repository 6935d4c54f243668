import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Tooltip } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { dataApi } from '../../api/data';
import { queryKeys } from '../../api/query-keys';
import { isApiError } from '../../api/request';
import { toast } from '../notifications/toasts';
import { fmtDateTime } from './format';

/**
 * 刷新: queues a snapshot now. The server rate-limits it per user and says why in the envelope's msg, which is
 * shown next to the button (the request layer is kept quiet for this call so the message is not shown twice).
 */
export function RefreshButton(props: { accountId?: number | null; type?: 'primary' | 'default' }) {
  const qc = useQueryClient();
  const [note, setNote] = useState<{ kind: 'ok' | 'err'; text: string } | null>(null);
  const m = useMutation({
    mutationFn: () => dataApi.refresh(props.accountId ?? undefined),
    onSuccess: (r) => {
      const text = r.queued > 0 ? `已提交 ${r.queued} 个账号的数据同步，稍后自动更新` : '没有可同步的账号';
      setNote({ kind: 'ok', text: `${text}（下次可刷新：${fmtDateTime(r.nextAllowedAt)}）` });
      toast.message('success', text, 3);
      // The snapshot lands asynchronously: reload now and once more shortly after.
      qc.invalidateQueries({ queryKey: queryKeys.data.all });
      setTimeout(() => { qc.invalidateQueries({ queryKey: queryKeys.data.all }); }, 3000);
    },
    onError: (e) => setNote({ kind: 'err', text: isApiError(e) ? e.message : '刷新失败，请稍后再试' }),
  });
  return (
    <span className="data-refresh">
      <Tooltip title="立即同步各平台最新数据">
        <Button type={props.type ?? 'default'} icon={<ReloadOutlined />} loading={m.isPending} onClick={() => m.mutate()} data-testid="data-refresh">
          刷新
        </Button>
      </Tooltip>
      {note ? (
        <span className={note.kind === 'err' ? 'data-refresh-err' : 'muted small'} role={note.kind === 'err' ? 'alert' : 'status'} data-testid="data-refresh-note">
          {note.text}
        </span>
      ) : null}
    </span>
  );
}
