import { Suspense, lazy, useState } from 'react';
import { Alert, Button, Checkbox, Empty, Form, Input, Modal, Radio, Select, Skeleton, Tag, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { PictureOutlined, PlusOutlined } from '@ant-design/icons';
import type { BoundAccount } from '../../api/publish';
import { ImagePicker } from '../writing/image-picker';
import { normalizeTopics, type DraftContent } from './format';
import { PublishProgress } from './publish-progress';
import { PacingNotes } from './pacing-notes';
import { usePublishForm, type ImageItem } from './use-publish-form';
import './publish.css';
import { settle } from '../../api/request';

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
  /** A graphic task (图文): its cards are the note's images, in order. */
  graphicTaskId?: string;
}

type PublishForm = ReturnType<typeof usePublishForm>;

function AccountLabel({ a }: { a: BoundAccount }) {
  return (
    <span className="account-option">
      {a.accountName}
      <Tag>{a.platformName || a.platform}</Tag>
      {a.sandbox ? <Tag color="orange">沙箱</Tag> : null}
      {a.status === 'expired' ? <Tag color="red">状态失效</Tag> : null}
    </span>
  );
}

function AccountPicker({ f }: { f: PublishForm }) {
  if (f.accounts.isPending) return <Skeleton.Input active size="small" />;
  if (f.accounts.isError)
    return (
      <Alert
        type="error"
        title="账号加载失败"
        action={
          <Button size="small" onClick={() => f.accounts.refetch()}>
            重试
          </Button>
        }
      />
    );
  if (!f.records.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有绑定账号，请先在账号管理中绑定" />;
  return (
    <Checkbox.Group
      value={f.accountIds}
      onChange={(v) => f.setAccountIds(v as number[])}
      options={f.records.map((a) => ({ value: a.id, label: <AccountLabel a={a} />, disabled: a.status === 'expired' }))}
      data-testid="publish-accounts"
    />
  );
}

/** Title, body and topics (with suggestions), for content typed here rather than a saved draft. */
function ContentFields({ f }: { f: PublishForm }) {
  return (
    <>
      <Form.Item label="标题" htmlFor="publish-title">
        <Input id="publish-title" value={f.title} onChange={(e) => f.setTitle(e.target.value)} maxLength={200} placeholder="填写标题，小红书类平台最多20字" />
      </Form.Item>
      <Form.Item label="正文" htmlFor="publish-body">
        <Input.TextArea id="publish-body" value={f.body} onChange={(e) => f.setBody(e.target.value)} autoSize={{ minRows: 4, maxRows: 10 }} placeholder="写点什么…" />
      </Form.Item>
      <Form.Item label="话题" htmlFor="publish-topics">
        <Select
          id="publish-topics"
          mode="tags"
          value={f.topics}
          onChange={(v: string[]) => f.setTopics(normalizeTopics(v))}
          tokenSeparators={[',', '，', '#', ' ']}
          placeholder="输入话题后回车，或从推荐中选择"
          options={f.suggestions.map((t) => ({ value: t, label: `#${t}` }))}
        />
        <div className="topic-suggest" aria-live="polite" data-testid="topic-suggestions">
          {f.suggestions.length ? <span className="muted small">推荐：</span> : null}
          {f.suggestions.map((t) => (
            <Tag.CheckableTag key={t} checked={false} onChange={() => f.setTopics((v) => normalizeTopics([...v, t]))}>
              #{t}
            </Tag.CheckableTag>
          ))}
        </div>
      </Form.Item>
    </>
  );
}

function ImagesField({ f }: { f: PublishForm }) {
  const fileList: UploadFile[] = f.images.map((i: ImageItem) => ({ uid: i.uid, name: i.name, status: 'done', url: i.url, thumbUrl: i.url }));
  return (
    <Form.Item label={`图片（${f.images.length}）`}>
      {/* antd's Upload does not pass data-* attributes on: the wrapper carries the test id. */}
      <div data-testid="publish-images">
        <Upload
          listType="picture-card"
          accept="image/png,image/jpeg,image/gif"
          multiple
          fileList={fileList}
          beforeUpload={(file) => {
            settle(f.addImage(file));
            return Upload.LIST_IGNORE;
          }}
          onRemove={(file) => f.removeImage(file.uid)}
        >
          <button type="button" className="upload-tile" aria-label="上传图片">
            <PlusOutlined />
            <span>上传</span>
          </button>
        </Upload>
      </div>
    </Form.Item>
  );
}

/** A chosen platform needs more images: offer a cover from the title or a picked image. */
function ImageRuleAlert({ f, onPick }: { f: PublishForm; onPick(): void }) {
  if (!f.rule) return null;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="publish-image-rule"
      style={{ marginBottom: 16 }}
      title={f.rule.message}
      description={f.images.length ? `当前只有 ${f.images.length} 张图片。` : '这篇文章还没有图片：可以用标题生成一张封面，或选择一张图片。添加后即可发布。'}
      action={
        <div className="stack-actions">
          <Button size="small" type="primary" icon={<PictureOutlined />} loading={f.covering} onClick={() => settle(f.makeCover())} data-testid="publish-make-cover">
            生成封面
          </Button>
          <Button size="small" onClick={onPick} data-testid="publish-pick-image">
            选择图片
          </Button>
        </div>
      }
    />
  );
}

function WhenField({ f }: { f: PublishForm }) {
  return (
    <Form.Item label="发布时间">
      <Radio.Group value={f.when} onChange={(e) => f.setWhen(e.target.value as 'now' | 'later')} data-testid="publish-when">
        <Radio value="now">立即发布</Radio>
        <Radio value="later" disabled={f.noSchedule}>
          定时发布
        </Radio>
      </Radio.Group>
      {f.when === 'later' ? (
        <div className="schedule-row">
          <Suspense fallback={<Skeleton.Input active size="small" />}>
            <SchedulePicker value={f.scheduleAt} onChange={f.setScheduleAt} maxAheadMs={f.maxAheadMs} />
          </Suspense>
        </div>
      ) : null}
    </Form.Item>
  );
}

function ProblemList({ problems }: { problems: string[] }) {
  if (!problems.length) return null;
  return (
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
  );
}

function DialogFooter({ f, onClose }: { f: PublishForm; onClose(): void }) {
  if (f.publishId)
    return (
      <div className="modal-actions">
        <Button onClick={() => f.setPublishId(null)}>再发一篇</Button>
        <Button type="primary" onClick={onClose} data-testid="publish-close">
          完成
        </Button>
      </div>
    );
  return (
    <div className="modal-actions">
      <Button onClick={onClose}>取消</Button>
      <Button type="primary" loading={f.submitting} disabled={!!f.rule} title={f.rule?.message} onClick={() => settle(f.submit())} data-testid="publish-submit">
        {f.when === 'later' ? '定时发布' : '立即发布'}
      </Button>
    </div>
  );
}

export function PublishDialog(props: PublishDialogProps) {
  const f = usePublishForm(props);
  const [pickerOpen, setPickerOpen] = useState(false);

  return (
    <Modal
      open={props.open}
      title={f.publishId ? '发布进度' : '发布笔记'}
      onCancel={props.onClose}
      width={640}
      destroyOnHidden
      maskClosable={false}
      footer={<DialogFooter f={f} onClose={props.onClose} />}
    >
      <div data-testid="publish-dialog">
        {f.publishId ? (
          <PublishProgress publishId={f.publishId} />
        ) : (
          <Form layout="vertical" requiredMark={false} onSubmitCapture={(e) => e.preventDefault()}>
            {props.draftId ? <Alert type="info" showIcon title="将发布已保存的草稿内容" style={{ marginBottom: 16 }} /> : <ContentFields f={f} />}
            <Form.Item label="发布账号">
              <AccountPicker f={f} />
            </Form.Item>
            <ImagesField f={f} />
            <ImageRuleAlert f={f} onPick={() => setPickerOpen(true)} />
            <WhenField f={f} />
            <PacingNotes accounts={f.records.filter((a) => f.accountIds.includes(a.id))} scheduleAt={f.when === 'later' ? f.scheduleAt : null} />
            <ProblemList problems={f.problems} />
          </Form>
        )}
      </div>
      <ImagePicker open={pickerOpen} onClose={() => setPickerOpen(false)} onPick={(url) => f.pushImage(url, '图片')} />
    </Modal>
  );
}
