import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Calendar, List, Skeleton, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { FestivalItem } from '@inkstone/shared';
import { writingApi } from '../../api/writing';

/**
 * Marketing days are fixed Gregorian dates by definition (双11 is 11-11), so they are listed here; festivals and
 * solar terms come from the server (chinese-days), never typed by hand.
 */
const MARKETING: Array<{ md: string; name: string; suggestion: string }> = [
  { md: '02-14', name: '情人节', suggestion: '写礼物清单、约会攻略、单身也快乐' },
  { md: '03-08', name: '妇女节', suggestion: '写女性成长、职场故事、悦己消费' },
  { md: '03-15', name: '消费者权益日', suggestion: '写避坑指南、维权经验、产品测评' },
  { md: '05-20', name: '520', suggestion: '写表白文案、礼物推荐、情侣故事' },
  { md: '06-18', name: '618', suggestion: '写年中大促攻略、清单和比价' },
  { md: '09-01', name: '开学季', suggestion: '写开学必备清单、新学期计划、家长指南' },
  { md: '11-11', name: '双11', suggestion: '写购物清单、满减攻略、理性消费' },
  { md: '12-12', name: '双12', suggestion: '写年末好物、囤货清单' },
  { md: '12-24', name: '平安夜', suggestion: '写节日氛围、礼物与约会' },
];

interface Day {
  name: string;
  kind: string;
  suggestion: string;
}

const kindLabel: Record<FestivalItem['type'] | 'marketing', string> = { traditional: '传统节日', solar_term: '节气', public_holiday: '法定假日', marketing: '营销节点' };
const kindColor: Record<string, string> = { 传统节日: 'red', 节气: 'green', 法定假日: 'orange', 营销节点: 'purple' };

export default function FestivalCalendar({ onWrite }: { onWrite: (title: string) => void }) {
  const [value, setValue] = useState<Dayjs>(dayjs());
  const year = value.year();
  const q = useQuery({ queryKey: ['writing', 'festivals', year], queryFn: () => writingApi.festivals(year), staleTime: 3600_000, retry: false });
  const days = new Map<string, Day[]>();
  const add = (date: string, d: Day) => days.set(date, [...(days.get(date) ?? []), d]);
  for (const f of q.data ?? []) add(f.date, { name: f.name, kind: kindLabel[f.type], suggestion: f.suggestion });
  for (const m of MARKETING) add(`${year}-${m.md}`, { name: m.name, kind: kindLabel.marketing, suggestion: m.suggestion });
  const selected = days.get(value.format('YYYY-MM-DD')) ?? [];
  const monthItems = [...days.entries()].filter(([d]) => d.startsWith(value.format('YYYY-MM'))).sort(([a], [b]) => a.localeCompare(b));

  if (q.isError) return <Alert type="error" showIcon title="节日数据加载失败" action={<Button size="small" onClick={() => void q.refetch()}>重试</Button>} />;
  return (
    <div className="topic-calendar topic-gap" data-testid="topic-calendar">
      {q.isLoading ? (
        <Skeleton active />
      ) : (
        <Calendar
          value={value}
          onChange={setValue}
          fullscreen={false}
          cellRender={(d, info) => {
            if (info.type !== 'date') return info.originNode;
            const list = days.get(d.format('YYYY-MM-DD'));
            return list ? <div className="topic-cal-mark">{list.map((x) => x.name).join(' ')}</div> : null;
          }}
        />
      )}
      <List
        header={<b>{selected.length ? value.format('M月D日') : `${value.format('M月')}的节点`}</b>}
        dataSource={selected.length ? selected.map((s) => [value.format('YYYY-MM-DD'), s] as const) : monthItems.flatMap(([d, l]) => l.map((s) => [d, s] as const))}
        locale={{ emptyText: '本月没有节日节点' }}
        renderItem={([d, s]) => (
          <List.Item actions={[<Button key="w" size="small" onClick={() => onWrite(`${s.name}（${d}）：${s.suggestion}`)}>写这个</Button>]}>
            <List.Item.Meta
              title={
                <>
                  <Tag color={kindColor[s.kind]}>{s.kind}</Tag>
                  {s.name} <span className="muted">{d}</span>
                </>
              }
              description={s.suggestion}
            />
          </List.Item>
        )}
      />
    </div>
  );
}
