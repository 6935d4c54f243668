import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, List, Modal, Skeleton, Tag } from 'antd';
import { publishApi, type PublishJob } from '../../api/publish';
import { formatDateTime, isResultSettled, jobStatusLabel, jobStatusTagColor } from './format';
import { usePlatformName } from './platforms';
import { pollWhile } from '../polling/use-poll';
import { queryKeys } from '../../api/query-keys';
import { settle } from '../../api/request';

const POLL_MS = 2000;

function ScreenshotButton({ url }: { url: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  useEffect(() => () => void (src && URL.revokeObjectURL(src)), [src]);
  const open = async () => {
    setLoading(true);
    setFailed(false);
    try {
      setSrc(URL.createObjectURL(await publishApi.screenshot(url)));
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  };
  return (
    <>
      <Button size="small" type="link" loading={loading} onClick={() => settle(open())}>
        {failed ? '截图加载失败，重试' : '查看失败截图'}
      </Button>
      <Modal open={!!src} footer={null} onCancel={() => setSrc(null)} title="失败时的页面截图" width={720}>
        {src ? <img src={src} alt="发布失败时的页面截图" style={{ width: '100%' }} /> : null}
      </Modal>
    </>
  );
}

export function JobRow({ job, now }: { job: PublishJob; now: number }) {
  const platformName = usePlatformName();
  return (
    <List.Item
      data-testid="publish-job"
      data-status={job.status}
      data-account-id={job.accountId}
      extra={
        job.url ? (
          <a href={job.url} target="_blank" rel="noopener noreferrer" data-testid="publish-job-link">
            查看笔记
          </a>
        ) : null
      }
    >
      <List.Item.Meta
        title={
          <span className="job-title">
            {job.accountName}
            <Tag>{platformName(job.platform)}</Tag>
            <Tag color={jobStatusTagColor(job)} data-testid="publish-job-status">
              {jobStatusLabel(job, now)}
            </Tag>
          </span>
        }
        description={
          <>
            {job.attempts > 1 || job.status === 'failed' ? (
              <span className="muted small">
                已尝试 {job.attempts}/{job.maxAttempts} 次{job.status === 'running' && job.attempts > 1 ? '，正在重试' : ''}
              </span>
            ) : null}
            {job.error ? (
              <div className="job-error" role="alert">
                {job.error}
              </div>
            ) : null}
            {job.screenshotUrl ? <ScreenshotButton url={job.screenshotUrl} /> : null}
            {job.finishedAt ? <div className="muted small">完成于 {formatDateTime(job.finishedAt)}</div> : null}
          </>
        }
      />
    </List.Item>
  );
}

/** Per-account progress of one publish, polled until every job has settled. */
export function PublishProgress({ publishId }: { publishId: string }) {
  const result = useQuery({
    queryKey: queryKeys.publish.result(publishId),
    queryFn: () => publishApi.result(publishId),
    refetchInterval: pollWhile((data) => !data || !isResultSettled(data), POLL_MS),
    retry: 2,
  });
  // Set whenever data is present, which is the only time jobs are rendered.
  const now = result.dataUpdatedAt;
  if (result.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (result.isError)
    return <Alert type="error" showIcon title="发布进度加载失败" description={result.error.message} action={<Button onClick={() => result.refetch()}>重试</Button>} />;
  const r = result.data;
  const summary = { queued: '排队中', running: '发布中', succeeded: '全部发布成功', partial: '部分发布成功', failed: '发布失败' }[r.status];
  return (
    <div data-testid="publish-progress" data-status={r.status}>
      <p className="publish-summary" role="status" aria-live="polite">
        「{r.title || '无标题'}」{summary}
        {r.scheduleAt ? <span className="muted small">（定时 {formatDateTime(r.scheduleAt)}）</span> : null}
      </p>
      <List dataSource={r.jobs} rowKey="jobId" renderItem={(job) => <JobRow job={job} now={now} />} />
    </div>
  );
}
