import { useMemo, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, DatePicker, Row, Space, Statistic, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { adminRoleAtLeast, type AdminFailedJob } from '@inkstone/shared';
import type { AdminMe } from '../../api/admin';
import { dateTime } from '../../features/vip/format';
import { EChart } from '../../features/data/echart';
import { adminApi } from './admin-api';

const TASK_STATUS: Record<string, string> = { queued: '排队中', running: '生成中', succeeded: '成功', failed: '失败' };
const yuan = (fen: number) => (fen / 100).toFixed(2);

const lineOption = (days: string[], series: Array<{ name: string; data: number[] }>) => ({
  tooltip: { trigger: 'axis' },
  legend: { top: 0 },
  grid: { left: 48, right: 16, top: 32, bottom: 24 },
  xAxis: { type: 'category', data: days.map((d) => d.slice(5)) },
  yAxis: { type: 'value', minInterval: 1 },
  series: series.map((s) => ({ ...s, type: 'line', smooth: true, showSymbol: days.length <= 31 })),
});

/** 仪表盘: per-day users and money over a range of China days, writing tasks, publish success and the job queue. */
export default function DashboardPage({ me }: { me: AdminMe }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(29, 'day'), dayjs()]);
  const from = range[0].format('YYYY-MM-DD');
  const to = range[1].format('YYYY-MM-DD');
  const dash = useQuery({ queryKey: ['admin', 'dashboard', from, to], queryFn: () => adminApi.dashboard({ from, to }), placeholderData: keepPreviousData, retry: false });
  const retry = useMutation({
    mutationFn: (j: AdminFailedJob) => adminApi.retryJob(j.name, j.id),
    onSuccess: async () => {
      message.success('已重新排队');
      await queryClient.invalidateQueries({ queryKey: ['admin', 'dashboard'] });
    },
  });
  const d = dash.data;
  const days = useMemo(() => d?.days.map((x) => x.day) ?? [], [d]);
  const users = useMemo(
    () =>
      lineOption(days, [
        { name: '注册', data: d?.days.map((x) => x.signups) ?? [] },
        { name: '日活', data: d?.days.map((x) => x.dau) ?? [] },
        { name: '付费用户', data: d?.days.map((x) => x.payingUsers) ?? [] },
      ]),
    [d, days],
  );
  const money = useMemo(
    () =>
      lineOption(days, [
        { name: '净收入（元）', data: d?.days.map((x) => x.revenueFen / 100) ?? [] },
        { name: '退款（元）', data: d?.days.map((x) => x.refundFen / 100) ?? [] },
      ]),
    [d, days],
  );
  const rate = d?.totals.publishSuccessRate;

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="admin-dashboard">
      <Space>
        <span>日期范围</span>
        <DatePicker.RangePicker
          allowClear={false}
          value={range}
          onChange={(v) => {
            if (v?.[0] && v[1]) setRange([v[0], v[1]]);
          }}
        />
      </Space>
      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title="新注册" value={d?.totals.signups ?? 0} loading={dash.isLoading} data-testid="dash-signups" />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title="付费用户" value={d?.totals.payingUsers ?? 0} loading={dash.isLoading} data-testid="dash-paying" />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title="净收入（元）" value={yuan(d?.totals.revenueFen ?? 0)} loading={dash.isLoading} data-testid="dash-revenue" />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic
              title={`发布成功率（成功 ${d?.totals.publishSucceeded ?? 0} / 失败 ${d?.totals.publishFailed ?? 0}）`}
              value={rate === null || rate === undefined ? '—' : `${(rate * 100).toFixed(1)}%`}
              loading={dash.isLoading}
              data-testid="dash-publish-rate"
            />
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title="用户（按天）">
            <EChart option={users} height={260} testId="dash-chart-users" ariaLabel="每日注册、日活与付费用户" />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title="收入（按天，已扣退款）">
            <EChart option={money} height={260} testId="dash-chart-revenue" ariaLabel="每日净收入与退款" />
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={8}>
          <Card title="写作任务（按状态）">
            <Space wrap data-testid="dash-tasks">
              {(d?.tasks ?? []).length ? d!.tasks.map((t) => <Tag key={t.status}>{`${TASK_STATUS[t.status] ?? t.status} ${t.count}`}</Tag>) : '无'}
            </Space>
          </Card>
        </Col>
        <Col xs={24} lg={16}>
          <Card title={`任务队列（${d?.queue.kind === 'bullmq' ? 'Redis / BullMQ，全部工作进程' : '进程内队列，仅本进程，重启后失败记录清空'}）`}>
            <Table
              rowKey="name"
              size="small"
              pagination={false}
              dataSource={d?.queue.jobs ?? []}
              columns={[
                { title: '任务', dataIndex: 'name' },
                { title: '等待', dataIndex: 'waiting' },
                { title: '执行中', dataIndex: 'active' },
                { title: '延后', dataIndex: 'delayed' },
                { title: '失败', dataIndex: 'failed', render: (n: number) => (n ? <Tag color="red">{n}</Tag> : 0) },
              ]}
            />
          </Card>
        </Col>
      </Row>
      <Card title="失败的任务">
        <Table<AdminFailedJob>
          rowKey={(r) => `${r.name}:${r.id}`}
          size="small"
          data-testid="dash-failed-jobs"
          pagination={false}
          dataSource={d?.queue.failed ?? []}
          columns={[
            { title: '任务', dataIndex: 'name' },
            { title: '编号', dataIndex: 'id' },
            { title: '原因', dataIndex: 'error' },
            { title: '已尝试', dataIndex: 'attempts' },
            { title: '失败时间', dataIndex: 'failedAt', render: (t: string) => dateTime(t) },
            {
              title: '',
              key: 'op',
              render: (_: unknown, r) =>
                adminRoleAtLeast(me.role, 'operator') ? (
                  <Button size="small" loading={retry.isPending && retry.variables === r} onClick={() => retry.mutate(r)}>
                    重试
                  </Button>
                ) : null,
            },
          ]}
        />
      </Card>
    </Space>
  );
}
