import { useEffect, useState } from 'react';
import { Form, Input, Select, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { graphicLimits, noteTextLength } from '@inkstone/shared';
import { graphicApi } from '../../api/graphic';
import { queryKeys } from '../../api/query-keys';
import type { GraphicNote } from './use-graphic-note';

/** Topics as the platform takes them: no '#', no blanks, no duplicates, at most 10. */
export function cleanTags(raw: string[]): string[] {
  const out: string[] = [];
  for (const t of raw) {
    const v = t.replace(/^#+/, '').trim().slice(0, graphicLimits.tagMaxChars);
    if (v && !out.includes(v)) out.push(v);
  }
  return out.slice(0, graphicLimits.tagsMax);
}

function Counter({ used, max }: { used: number; max: number }) {
  return (
    <Typography.Text type={used > max ? 'danger' : 'secondary'} className="counter" aria-live="polite">
      {used}/{max}
    </Typography.Text>
  );
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setV(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** Title (20, counted as Xiaohongshu counts), body (1,000) and topics (suggested from the words, searchable, 10). */
export function NoteFields({ note }: { note: GraphicNote }) {
  const [search, setSearch] = useState('');
  const text = useDebounced(`${note.title}\n${note.body}`.trim().slice(0, 2000), 600);
  const suggest = useQuery({ queryKey: queryKeys.graphic.topics(text), queryFn: () => graphicApi.topics(text), enabled: text.length >= 2, staleTime: 60_000 });
  const q = useDebounced(search.trim(), 300);
  const searched = useQuery({ queryKey: queryKeys.graphic.topics(q), queryFn: () => graphicApi.topics(q), enabled: q.length >= 1, staleTime: 60_000 });
  const titleLen = noteTextLength(note.title.trim());
  const bodyLen = noteTextLength(note.body);
  const full = note.tags.length >= graphicLimits.tagsMax;
  const suggestions = (suggest.data?.tags ?? []).filter((t) => !note.tags.includes(t)).slice(0, 10);
  const options = [...new Set([...(q ? [q.replace(/^#+/, '')] : []), ...(searched.data?.tags ?? [])])].filter(Boolean).map((t) => ({ value: t, label: `#${t}` }));
  const addTags = (v: string[]) => note.setTags(cleanTags(v));

  return (
    <Form layout="vertical" requiredMark={false} onSubmitCapture={(e) => e.preventDefault()} className="note-fields">
      <Form.Item
        label={
          <span className="label-row">
            标题 <Counter used={titleLen} max={graphicLimits.titleMax} />
          </span>
        }
        htmlFor="note-title"
        validateStatus={titleLen > graphicLimits.titleMax ? 'error' : undefined}
        help={titleLen > graphicLimits.titleMax ? `标题最多${graphicLimits.titleMax}字（中文1字，英文数字2个算1字）` : undefined}
      >
        <Input id="note-title" data-testid="note-title" value={note.title} onChange={(e) => note.setTitle(e.target.value)} placeholder="填写标题，最多20字" />
      </Form.Item>
      <Form.Item
        label={
          <span className="label-row">
            正文 <Counter used={bodyLen} max={graphicLimits.bodyMax} />
          </span>
        }
        htmlFor="note-body"
        validateStatus={bodyLen > graphicLimits.bodyMax ? 'error' : undefined}
        help={bodyLen > graphicLimits.bodyMax ? `正文最多${graphicLimits.bodyMax}字` : undefined}
      >
        <Input.TextArea id="note-body" data-testid="note-body" value={note.body} onChange={(e) => note.setBody(e.target.value)} autoSize={{ minRows: 4, maxRows: 12 }} />
      </Form.Item>
      <Form.Item
        label={
          <span className="label-row">
            话题 <Counter used={note.tags.length} max={graphicLimits.tagsMax} />
          </span>
        }
        htmlFor="note-tags"
      >
        <Select
          id="note-tags"
          data-testid="note-tags"
          mode="tags"
          value={note.tags}
          onChange={addTags}
          searchValue={search}
          onSearch={setSearch}
          onBlur={() => setSearch('')}
          tokenSeparators={[',', '，', '#', ' ']}
          placeholder="搜索或输入话题后回车"
          options={options}
          maxCount={graphicLimits.tagsMax}
          notFoundContent={q ? (searched.isFetching ? '搜索中…' : '回车添加该话题') : null}
        />
        <div className="topic-suggest" aria-live="polite" data-testid="note-topic-suggestions">
          {suggestions.length ? <span className="muted small">推荐：</span> : suggest.isFetching ? <span className="muted small">正在推荐话题…</span> : null}
          {suggestions.map((t) => (
            <Tag.CheckableTag key={t} checked={false} onChange={() => !full && addTags([...note.tags, t])}>
              #{t}
            </Tag.CheckableTag>
          ))}
          {full ? <span className="muted small">最多{graphicLimits.tagsMax}个话题</span> : null}
        </div>
      </Form.Item>
    </Form>
  );
}
