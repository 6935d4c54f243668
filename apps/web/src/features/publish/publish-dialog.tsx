import { Suspense, lazy, useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Empty, Form, Input, Modal, Radio, Select, Skeleton, Tag, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { PictureOutlined, PlusOutlined } from '@ant-design/icons';
import { coverTitleMax, limits } from '@inkstone/shared';
import { isApiError } from '../../api/request';
import { graphicApi } from '../../api/graphic';
import { publishApi, type BoundAccount } from '../../api/publish';
import { toast } from '../notifications/toasts';
import { ImagePicker } from '../writing/image-picker';
import { contentProblems, imageProblem, imageRule, normalizeTopics, platformLabel, sniffFileType, type DraftContent } from './format';
import { rememberPublish } from './history';
import { PublishProgress } from './publish-progress';
import './publish.css';

const SchedulePicker = lazy(() => import('./schedule-picker'));

export interface PublishDialogProps {
  open: boolean;
  onClose(): void;
  /** Prefill from the editor; images as data: or http(s) URLs. */
  initial?: Partial<DraftContent>;
  /** Publish a saved draft instead of the fields (the server reads its content). */
  draftId?: number;
  /**
   * The saved draft's HTML: when images are added here (a generated cover, a picked image) the draft goes out as
   * content with that image list, still linked to the draft.
   */
  draftHtml?: string;
  /** Accounts ticked when the dialog opens. */
  accountIds?: number[];
}

interface ImageItem {
  uid: string;
  name: string;
  url: string;
}

const MAX_AHEAD_DEFAULT = 14 * 24 * 3600_000;

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

export function PublishDialog(props: PublishDialogProps) {
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
  const [pickerOpen, setPickerOpen] = useState(false);

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

  const accounts = useQuery({
    queryKey: ['publish-accounts', 'all'],
    queryFn: () => publishApi.list(),
    enabled: props.open,
  });
  const config = useQuery({ queryKey: ['publish-config'], queryFn: () => publishApi.config(), enabled: props.open, staleTime: 5 * 60_000 });

  const tagText = useDebounced(`${title}\n${body}`.trim().slice(0, 5000), 600);
  const tags = useQuery({
    queryKey: ['xhs-tags', tagText],
    queryFn: () => publishApi.tags(tagText),
    enabled: props.open && !publishId && tagText.length >= 2,
    staleTime: 60_000,
  });
  const suggestions = (tags.data?.tags ?? []).filter((t) => !topics.includes(t)).slice(0, 10);

  const records = useMemo(() => accounts.data?.records ?? [], [accounts.data]);
  const chosen = records.filter((a) => accountIds.includes(a.id));
  const chosenLimits = useMemo(() => {
    const platforms = new Set(chosen.map((a) => a.platform));
    return (config.data?.platforms ?? []).filter((p) => platforms.has(p.platform));
  }, [chosen, config.data]);
  const maxAheadMs = Math.min(MAX_AHEAD_DEFAULT, ...chosenLimits.map((p) => p.limits.schedule?.maxAheadMs ?? MAX_AHEAD_DEFAULT));
  const noSchedule = chosenLimits.some((p) => p.limits.schedule === null);
  // Known before 发布: a chosen platform needs more images than the article has.
  const rule = imageRule(chosenLimits, images.length);
  const coverTitle = (props.draftId ? (props.initial?.title ?? '') : title).trim();
  const initialImages = props.initial?.images ?? [];
  const imagesChanged = images.length !== initialImages.length || images.some((i, n) => i.url !== initialImages[n]);

  const pushImage = (url: string, name: string) =>
    setImages((list) => (list.some((i) => i.url === url) ? list : [...list, { uid: `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, name, url }]));

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
      setImages((list) => [...list, { uid: `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, name: file.name, url }]);
    } catch {
      toast.message('error', '文件读取失败', 3);
    }
  };

  const submit = async () => {
    const content = { title: title.trim(), body, images: images.map((i) => i.url), topics: normalizeTopics(topics) };
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
    setProblems(found);
    if (found.length) return;
    setSubmitting(true);
    try {
      // A draft whose images were changed here goes out as content (the draft's own title and HTML), still linked to it.
      const draftContent = props.draftId && imagesChanged && props.draftHtml !== undefined
        ? { content: { title: (props.initial?.title ?? '').trim(), body: props.draftHtml, images: images.map((i) => i.url), topics: normalizeTopics(topics) } }
        : {};
      const reply = await publishApi.publish({
        accountIds,
        ...(props.draftId ? { draftId: props.draftId, ...draftContent } : { content }),
        ...(when === 'later' && scheduleAt ? { scheduleAt: scheduleAt.toISOString() } : {}),
      });
      rememberPublish({ publishId: reply.publishId, title: content.title, accountIds, createdAt: new Date().toISOString() });
      setPublishId(reply.publishId);
      void qc.invalidateQueries({ queryKey: ['publish-history'] });
    } catch (e) {
      // 1706 carries every platform's problems in msg (one per line); the toast already showed it briefly.
      if (isApiError(e) && e.kind === 'code') setProblems(e.message.split('\n').filter(Boolean));
    } finally {
      setSubmitting(false);
    }
  };

  const accountLabel = (a: BoundAccount) => (
    <span className="account-option">
      {a.accountName}
      <Tag>{a.platformName || platformLabel(a.platform)}</Tag>
      {a.sandbox ? <Tag color="orange">沙箱</Tag> : null}
      {a.status === 'expired' ? <Tag color="red">状态失效</Tag> : null}
    </span>
  );

  let accountPicker;
  if (accounts.isPending) accountPicker = <Skeleton.Input active size="small" />;
  else if (accounts.isError)
    accountPicker = (
      <Alert type="error" title="账号加载失败" action={<Button size="small" onClick={() => void accounts.refetch()}>重试</Button>} />
    );
  else if (!records.length) accountPicker = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有绑定账号，请先在账号管理中绑定" />;
  else
    accountPicker = (
      <Checkbox.Group
        value={accountIds}
        onChange={(v) => setAccountIds(v as number[])}
        options={records.map((a) => ({ value: a.id, label: accountLabel(a), disabled: a.status === 'expired' }))}
        data-testid="publish-accounts"
      />
    );

  const fileList: UploadFile[] = images.map((i) => ({ uid: i.uid, name: i.name, status: 'done', url: i.url, thumbUrl: i.url }));

  return (
    <Modal
      open={props.open}
      title={publishId ? '发布进度' : '发布笔记'}
      onCancel={props.onClose}
      width={640}
      destroyOnHidden
      maskClosable={false}
      footer={
        publishId ? (
          <div className="modal-actions">
            <Button onClick={() => setPublishId(null)}>再发一篇</Button>
            <Button type="primary" onClick={props.onClose} data-testid="publish-close">
              完成
            </Button>
          </div>
        ) : (
          <div className="modal-actions">
            <Button onClick={props.onClose}>取消</Button>
            <Button type="primary" loading={submitting} disabled={!!rule} title={rule?.message} onClick={() => void submit()} data-testid="publish-submit">
              {when === 'later' ? '定时发布' : '立即发布'}
            </Button>
          </div>
        )
      }
    >
      <div data-testid="publish-dialog">
        {publishId ? (
          <PublishProgress publishId={publishId} />
        ) : (
          <Form layout="vertical" requiredMark={false} onSubmitCapture={(e) => e.preventDefault()}>
            {props.draftId ? (
              <Alert type="info" showIcon title="将发布已保存的草稿内容" style={{ marginBottom: 16 }} />
            ) : (
              <>
                <Form.Item label="标题" htmlFor="publish-title">
                  <Input id="publish-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} placeholder="填写标题，小红书类平台最多20字" />
                </Form.Item>
                <Form.Item label="正文" htmlFor="publish-body">
                  <Input.TextArea id="publish-body" value={body} onChange={(e) => setBody(e.target.value)} autoSize={{ minRows: 4, maxRows: 10 }} placeholder="写点什么…" />
                </Form.Item>
                <Form.Item label="话题" htmlFor="publish-topics">
                  <Select
                    id="publish-topics"
                    mode="tags"
                    value={topics}
                    onChange={(v: string[]) => setTopics(normalizeTopics(v))}
                    tokenSeparators={[',', '，', '#', ' ']}
                    placeholder="输入话题后回车，或从推荐中选择"
                    options={suggestions.map((t) => ({ value: t, label: `#${t}` }))}
                  />
                  <div className="topic-suggest" aria-live="polite" data-testid="topic-suggestions">
                    {suggestions.length ? <span className="muted small">推荐：</span> : null}
                    {suggestions.map((t) => (
                      <Tag.CheckableTag key={t} checked={false} onChange={() => setTopics((v) => normalizeTopics([...v, t]))}>
                        #{t}
                      </Tag.CheckableTag>
                    ))}
                  </div>
                </Form.Item>
              </>
            )}
            <Form.Item label="发布账号">{accountPicker}</Form.Item>
            <Form.Item label={`图片（${images.length}）`}>
              {/* antd's Upload does not pass data-* attributes on: the wrapper carries the test id. */}
              <div data-testid="publish-images">
                <Upload
                  listType="picture-card"
                  accept="image/png,image/jpeg,image/gif"
                  multiple
                  fileList={fileList}
                  beforeUpload={(file) => {
                    void addImage(file);
                    return Upload.LIST_IGNORE;
                  }}
                  onRemove={(f) => setImages((list) => list.filter((i) => i.uid !== f.uid))}
                >
                  <button type="button" className="upload-tile" aria-label="上传图片">
                    <PlusOutlined />
                    <span>上传</span>
                  </button>
                </Upload>
              </div>
            </Form.Item>
            {rule ? (
              <Alert
                type="warning"
                showIcon
                data-testid="publish-image-rule"
                style={{ marginBottom: 16 }}
                title={rule.message}
                description={images.length ? `当前只有 ${images.length} 张图片。` : '这篇文章还没有图片：可以用标题生成一张封面，或选择一张图片。添加后即可发布。'}
                action={
                  <div className="stack-actions">
                    <Button size="small" type="primary" icon={<PictureOutlined />} loading={covering} onClick={() => void makeCover()} data-testid="publish-make-cover">
                      生成封面
                    </Button>
                    <Button size="small" onClick={() => setPickerOpen(true)} data-testid="publish-pick-image">
                      选择图片
                    </Button>
                  </div>
                }
              />
            ) : null}
            <Form.Item label="发布时间">
              <Radio.Group value={when} onChange={(e) => setWhen(e.target.value as 'now' | 'later')} data-testid="publish-when">
                <Radio value="now">立即发布</Radio>
                <Radio value="later" disabled={noSchedule}>
                  定时发布
                </Radio>
              </Radio.Group>
              {when === 'later' ? (
                <div className="schedule-row">
                  <Suspense fallback={<Skeleton.Input active size="small" />}>
                    <SchedulePicker value={scheduleAt} onChange={setScheduleAt} maxAheadMs={maxAheadMs} />
                  </Suspense>
                </div>
              ) : null}
            </Form.Item>
            {problems.length ? (
              <Alert
                type="error"
                showIcon
                data-testid="publish-problems"
                title="请先处理以下问题"
                description={
                  <ul className="problem-list">
                    {problems.map((p) => (
                      <li key={p}>{p}</li>
                    ))}
                  </ul>
                }
              />
            ) : null}
          </Form>
        )}
      </div>
      <ImagePicker open={pickerOpen} onClose={() => setPickerOpen(false)} onPick={(url) => pushImage(url, '图片')} />
    </Modal>
  );
}
