import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Calendar, List, Skeleton, Space, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { CalendarDay } from '@inkstone/shared';
import { topicApi } from '../../api/topic';
import { queryKeys } from '../../api/query-keys';

/**
 * The month calendar of /topic. Everything on it comes from the server (GET /topic/v3/calendar): festivals, solar
 * terms and holidays from chinese-days, marketing days from the topic module's table. Nothing is dated here.
 */
const kindLabel: Record<CalendarDay['type'], string> = { traditional: '传统节日', solar_term: '节气', public_holiday: '法定假日', marketing: '营销节点' };
const kindColor: Record<CalendarDay['type'], string> = { traditional: 'red', solar_term: 'green', public_holiday: 'orange', marketing: 'purple' };

/** The days of a month a calendar entry covers (a span is marked on each of its days). */
function spread(days: CalendarDay[]): Map<string, CalendarDay[]> {
  const out = new Map<string, CalendarDay[]>();
  for (const d of days) {
    let day = dayjs(d.date);
    const last = dayjs(d.endDate ?? d.date);
    // Spans are a few weeks at most; the bound keeps a malformed one from looping long.
    for (let i = 0; i < 62 && !day.isAfter(last, 'day'); i += 1, day = day.add(1, 'day')) {
      const k = day.format('YYYY-MM-DD');
      out.set(k, [...(out.get(k) ?? []), d]);
    }
  }
  return out;
}

export default function FestivalCalendar({ onWrite }: { onWrite: (title: string) => void }) {
  const [value, setValue] = useState<Dayjs>(dayjs());
  const month = value.format('YYYY-MM');
  const q = useQuery({ queryKey: queryKeys.topic.calendar(month), queryFn: () => topicApi.calendar(month), staleTime: 3600_000, retry: false });
  const entries = q.data?.days ?? [];
  const byDay = spread(entries);
  const selected = byDay.get(value.format('YYYY-MM-DD')) ?? [];
  const shown = selected.length ? selected : entries;
  const when = (d: CalendarDay) => (d.endDate ? `${d.date} 至 ${d.endDate}` : d.date);

  if (q.isError)
    return (
      <Alert
        type="error"
        showIcon
        title="日历数据加载失败"
        action={
          <Button size="small" onClick={() => q.refetch()}>
            重试
          </Button>
        }
      />
    );
  return (
    <div className="topic-calendar topic-gap" data-testid="topic-calendar">
      <Calendar
        value={value}
        onChange={setValue}
        fullscreen={false}
        cellRender={(d, info) => {
          if (info.type !== 'date') return info.originNode;
          // Only single days are written in the cell; a span is named on its first day.
          const list = (byDay.get(d.format('YYYY-MM-DD')) ?? []).filter((x) => !x.endDate || x.date === d.format('YYYY-MM-DD'));
          return list.length ? <div className="topic-cal-mark">{list.map((x) => x.name).join(' ')}</div> : null;
        }}
      />
      {q.isLoading ? (
        <Skeleton active />
      ) : (
        <List
          header={<b>{selected.length ? value.format('M月D日') : `${value.format('M月')}的节点`}</b>}
          dataSource={shown}
          locale={{ emptyText: '本月没有节日节点' }}
          renderItem={(d) => (
            <List.Item
              data-testid="topic-calendar-day"
              actions={[
                <Button key="w" size="small" onClick={() => onWrite(`${d.name}（${when(d)}）：${d.suggestion}`)}>
                  写这个
                </Button>,
              ]}
            >
              <List.Item.Meta
                title={
                  <>
                    <Tag color={kindColor[d.type]}>{kindLabel[d.type]}</Tag>
                    {d.name} <span className="muted">{when(d)}</span>
                  </>
                }
                description={
                  <>
                    <div>{d.suggestion}</div>
                    {d.topics.length > 0 && (
                      <Space size={[4, 4]} wrap className="topic-cal-topics">
                        {d.topics.map((t) => (
                          <Tag key={t} className="topic-cal-topic" style={{ cursor: 'pointer' }} onClick={() => onWrite(t)} data-testid="topic-calendar-topic">
                            {t}
                          </Tag>
                        ))}
                      </Space>
                    )}
                  </>
                }
              />
            </List.Item>
          )}
        />
      )}
    </div>
  );
}
