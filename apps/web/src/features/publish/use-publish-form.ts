import { useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { coverTitleMax, limits } from '@inkstone/shared';
import { isApiError } from '../../api/request';
import { graphicApi } from '../../api/graphic';
import { publishApi } from '../../api/publish';
import { queryKeys } from '../../api/query-keys';
import { toast } from '../notifications/toasts';
import { contentProblems, imageProblem, imageRule, normalizeTopics, sniffFileType, type DraftContent } from './format';
import { rememberPublish } from './history';
import { usePlatforms } from './platforms';

export interface PublishFormInput {
  open: boolean;
  initial?: Partial<DraftContent>;
  draftId?: number;
  draftHtml?: string;
  accountIds?: number[];
  /** A graphic task (图文): published as an image note of its cards; the fields here override its words. */
  graphicTaskId?: string;
}

export interface ImageItem {
  uid: string;
  name: string;
  url: string;
}

const MAX_AHEAD_DEFAULT = 14 * 24 * 3600_000;

const newUid = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(new Error('文件读取失败'));
    r.readAsDataURL(file);
  });
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setV(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** Topic suggestions for what is being written (debounced), minus the topics already chosen. */
function useTopicSuggestions(open: boolean, text: string, chosen: string[], done: boolean) {
  const tagText = useDebounced(text.trim().slice(0, 5000), 600);
  const tags = useQuery({
    queryKey: queryKeys.publish.xhsTags(tagText),
    queryFn: () => publishApi.tags(tagText),
    enabled: open && !done && tagText.length >= 2,
    staleTime: 60_000,
  });
  return (tags.data?.tags ?? []).filter((t) => !chosen.includes(t)).slice(0, 10);
}

/** The publish dialog's state: the content, the chosen accounts and their platforms' rules, and sending it. */
export function usePublishForm(props: PublishFormInput) {
  const qc = useQueryClient();
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [images, setImages] = useState<ImageItem[]>([]);
  const [topics, setTopics] = useState<string[]>([]);
  const [accountIds, setAccountIds] = useState<number[]>([]);
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [scheduleAt, setScheduleAt] = useState<Date | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [submitting, setSubmitting] = useState(false);
  const [publishId, setPublishId] = useState<string | null>(null);
  const [covering, setCovering] = useState(false);

  useEffect(() => {
    if (!props.open) return;
    setTitle(props.initial?.title ?? '');
    setBody(props.initial?.body ?? '');
    setImages((props.initial?.images ?? []).map((url, i) => ({ uid: `init-${i}`, name: `图片${i + 1}`, url })));
    setTopics(props.initial?.topics ?? []);
    setAccountIds(props.accountIds ?? []);
    setWhen('now');
    setScheduleAt(null);
    setProblems([]);
    setPublishId(null);
  }, [props.open, props.initial, props.accountIds]);

  const accounts = useQuery({ queryKey: queryKeys.publish.accounts.unfiltered, queryFn: () => publishApi.list(), enabled: props.open });
  const { platforms } = usePlatforms(props.open);
  const suggestions = useTopicSuggestions(props.open, `${title}\n${body}`, topics, !!publishId);

  const records = useMemo(() => accounts.data?.records ?? [], [accounts.data]);
  const chosenLimits = useMemo(() => {
    const chosen = new Set(records.filter((a) => accountIds.includes(a.id)).map((a) => a.platform));
    return platforms.filter((p) => chosen.has(p.platform));
  }, [records, accountIds, platforms]);
  const maxAheadMs = Math.min(MAX_AHEAD_DEFAULT, ...chosenLimits.map((p) => p.limits.schedule?.maxAheadMs ?? MAX_AHEAD_DEFAULT));
  const noSchedule = chosenLimits.some((p) => p.limits.schedule === null);
  // Known before 发布: a chosen platform needs more images than the article has.
  const rule = imageRule(chosenLimits, images.length);
  const coverTitle = (props.draftId ? (props.initial?.title ?? '') : title).trim();
  const initialImages = props.initial?.images ?? [];
  const imagesChanged = images.length !== initialImages.length || images.some((i, n) => i.url !== initialImages[n]);

  const pushImage = (url: string, name: string) => setImages((list) => (list.some((i) => i.url === url) ? list : [...list, { uid: newUid(), name, url }]));
  const removeImage = (uid: string) => setImages((list) => list.filter((i) => i.uid !== uid));

  const makeCover = async () => {
    if (!coverTitle) {
      toast.message('error', '请先填写标题，封面用标题生成', 3);
      return;
    }
    setCovering(true);
    try {
      const cover = await graphicApi.cover({ title: [...coverTitle].slice(0, coverTitleMax).join('') });
      pushImage(cover.url, '封面');
    } catch {
      // The request layer has shown the reason.
    } finally {
      setCovering(false);
    }
  };

  const addImage = async (file: File) => {
    try {
      const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
      const problem = imageProblem(file, sniffFileType(head), limits.uploadMaxBytes);
      if (problem) {
        toast.message('error', problem, 3);
        return;
      }
      const url = await readAsDataUrl(file);
      setImages((list) => [...list, { uid: newUid(), name: file.name, url }]);
    } catch {
      toast.message('error', '文件读取失败', 3);
    }
  };

  const problemsBefore = (content: DraftContent): string[] => {
    const found: string[] = [];
    if (!accountIds.length) found.push('请选择发布账号');
    if (!props.draftId) found.push(...contentProblems(content, chosenLimits));
    // A saved draft is checked on what the editor handed over (its text counts like the platforms count it).
    else if (props.initial) {
      const draft = { title: (props.initial.title ?? '').trim(), body: props.initial.body ?? '', images: images.map((i) => i.url), topics: [] };
      found.push(...contentProblems(draft, chosenLimits));
    }
    if (when === 'later') {
      if (!scheduleAt) found.push('请选择定时发布时间');
      else if (scheduleAt.getTime() <= Date.now()) found.push('定时发布时间需晚于当前时间');
    }
    return found;
  };

  const submit = async () => {
    const content = { title: title.trim(), body, images: images.map((i) => i.url), topics: normalizeTopics(topics) };
    const found = problemsBefore(content);
    setProblems(found);
    if (found.length) return;
    setSubmitting(true);
    try {
      // A draft whose images were changed here goes out as content (the draft's own title and HTML), still linked to it.
      const draftContent =
        props.draftId && imagesChanged && props.draftHtml !== undefined
          ? { content: { title: (props.initial?.title ?? '').trim(), body: props.draftHtml, images: images.map((i) => i.url), topics: normalizeTopics(topics) } }
          : {};
      // A graphic note goes out as its cards (the server reads them in order) unless the images were changed here.
      const graphic = props.graphicTaskId
        ? { graphicTaskId: props.graphicTaskId, content: { ...content, kind: 'image' as const, images: imagesChanged ? content.images : [] } }
        : null;
      const reply = await publishApi.publish({
        accountIds,
        ...(graphic ?? (props.draftId ? { draftId: props.draftId, ...draftContent } : { content })),
        ...(when === 'later' && scheduleAt ? { scheduleAt: scheduleAt.toISOString() } : {}),
      });
      rememberPublish({ publishId: reply.publishId, title: content.title, accountIds, createdAt: new Date().toISOString() });
      setPublishId(reply.publishId);
      qc.invalidateQueries({ queryKey: queryKeys.publish.history });
    } catch (e) {
      // 1706 carries every platform's problems in msg (one per line); the toast already showed it briefly.
      if (isApiError(e) && e.kind === 'code') setProblems(e.message.split('\n').filter(Boolean));
    } finally {
      setSubmitting(false);
    }
  };

  return {
    title,
    setTitle,
    body,
    setBody,
    topics,
    setTopics,
    suggestions,
    accountIds,
    setAccountIds,
    when,
    setWhen,
    scheduleAt,
    setScheduleAt,
    images,
    pushImage,
    removeImage,
    addImage,
    makeCover,
    covering,
    accounts,
    records,
    rule,
    maxAheadMs,
    noSchedule,
    problems,
    submitting,
    submit,
    publishId,
    setPublishId,
  };
}
