import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Drawer, Empty, Input, List, Skeleton, Tabs, Tag } from 'antd';
import { feedbackContactMaxLength, feedbackContentMaxLength, feedbackImagesMax, formatTimeAgo } from '@inkstone/shared';
import { feedbackApi, type FeedbackItem } from '../../api/feedback';
import { uploadImageChecked } from '../writing/image-picker';
import { toast } from '../notifications/toasts';
import { queryKeys } from '../../api/query-keys';
import { settle } from '../../api/request';

export type FeedbackTab = 'new' | 'mine';
const PAGE_SIZE = 10;

function FeedbackForm({ onSent }: { onSent(): void }) {
  const [content, setContent] = useState('');
  const [contact, setContact] = useState('');
  const [images, setImages] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const send = useMutation({
    mutationFn: () => feedbackApi.submit({ content: content.trim(), images, ...(contact.trim() ? { contact: contact.trim() } : {}) }),
    onSuccess: () => {
      toast.message('success', '感谢反馈！回复会出现在「消息通知」里', 3);
      setContent('');
      setContact('');
      setImages([]);
      onSent();
    },
  });
  const onFile = async (f: File | undefined) => {
    if (!f) return;
    setUploading(true);
    // Same checks and upload as every other image (type from the bytes, 20MB).
    const url = await uploadImageChecked(f);
    setUploading(false);
    if (fileRef.current) fileRef.current.value = '';
    if (url) setImages((list) => [...list, url].slice(0, feedbackImagesMax));
  };
  const empty = !content.trim();
  return (
    <div className="feedback-form" data-testid="feedback-form">
      <label htmlFor="feedback-content">遇到的问题或建议（必填）</label>
      <Input.TextArea
        id="feedback-content"
        data-testid="feedback-content"
        value={content}
        onChange={(e) => setContent(e.target.value)}
        maxLength={feedbackContentMaxLength}
        showCount
        autoSize={{ minRows: 5, maxRows: 10 }}
        placeholder="请描述你遇到的问题（在哪个页面、做了什么、看到了什么提示），或你希望增加的功能"
      />
      <div style={{ margin: '16px 0 8px' }}>截图（可选，最多{feedbackImagesMax}张）</div>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
        {images.map((url) => (
          <span key={url} style={{ position: 'relative' }}>
            <img src={url} alt="反馈截图" style={{ width: 72, height: 72, objectFit: 'cover', borderRadius: 4, border: '1px solid #eee' }} />
            <Button size="small" type="link" onClick={() => setImages((list) => list.filter((u) => u !== url))} aria-label="移除截图">
              移除
            </Button>
          </span>
        ))}
        {images.length < feedbackImagesMax ? (
          <Button onClick={() => fileRef.current?.click()} loading={uploading} data-testid="feedback-add-image">
            添加截图
          </Button>
        ) : null}
        <input ref={fileRef} type="file" accept="image/png,image/jpeg,image/gif" hidden onChange={(e) => settle(onFile(e.target.files?.[0]))} />
      </div>
      <label htmlFor="feedback-contact" style={{ display: 'block', margin: '16px 0 8px' }}>
        联系方式（可选：手机号、微信或邮箱）
      </label>
      <Input id="feedback-contact" data-testid="feedback-contact" value={contact} onChange={(e) => setContact(e.target.value)} maxLength={feedbackContactMaxLength} />
      <Button type="primary" block style={{ marginTop: 20 }} disabled={empty || uploading} loading={send.isPending} onClick={() => send.mutate()} data-testid="feedback-submit">
        提交反馈
      </Button>
    </div>
  );
}

function MyFeedback() {
  const [pageNum, setPageNum] = useState(1);
  const list = useQuery({ queryKey: queryKeys.feedback.page(pageNum), queryFn: () => feedbackApi.list({ pageNum, pageSize: PAGE_SIZE }), retry: false });
  if (list.isPending) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (list.isError)
    return (
      <Alert
        type="error"
        showIcon
        title="反馈加载失败"
        action={
          <Button size="small" onClick={() => list.refetch()}>
            重试
          </Button>
        }
      />
    );
  if (!list.data.records.length) return <Empty description="还没有提交过反馈" data-testid="feedback-empty" />;
  return (
    <List<FeedbackItem>
      data-testid="feedback-list"
      dataSource={list.data.records}
      rowKey="id"
      pagination={{ current: pageNum, pageSize: PAGE_SIZE, total: list.data.total, onChange: setPageNum, hideOnSinglePage: true, size: 'small' }}
      renderItem={(f) => (
        <List.Item data-testid="feedback-item">
          <List.Item.Meta
            title={
              <span>
                <Tag color={f.status === 'replied' ? 'green' : 'default'}>{f.status === 'replied' ? '已回复' : '处理中'}</Tag>
                <span className="muted small">{formatTimeAgo(f.createdAt)}</span>
              </span>
            }
            description={
              <>
                <p style={{ whiteSpace: 'pre-wrap', color: '#222', margin: '4px 0' }}>{f.content}</p>
                {f.images.length ? <p className="muted small">附 {f.images.length} 张截图</p> : null}
                {f.reply ? (
                  <div className="reply-box" data-testid="feedback-reply" style={{ display: 'block' }}>
                    <span className="muted small">运营回复：</span>
                    <span style={{ whiteSpace: 'pre-wrap' }}>{f.reply}</span>
                  </div>
                ) : null}
              </>
            }
          />
        </List.Item>
      )}
    />
  );
}

/** 帮助与反馈: a form (text, optional screenshots and contact) and the user's own feedback with replies. */
export function FeedbackDrawer(props: { open: boolean; tab: FeedbackTab; onTab(tab: FeedbackTab): void; onClose(): void }) {
  const qc = useQueryClient();
  return (
    <Drawer open={props.open} onClose={props.onClose} title="帮助与反馈" size="large" destroyOnHidden data-testid="feedback-drawer">
      <Tabs
        activeKey={props.tab}
        onChange={(k) => props.onTab(k as FeedbackTab)}
        items={[
          {
            key: 'new',
            label: '提交反馈',
            children: (
              <FeedbackForm
                onSent={() => {
                  qc.invalidateQueries({ queryKey: queryKeys.feedback.all });
                  props.onTab('mine');
                }}
              />
            ),
          },
          { key: 'mine', label: '我的反馈', children: <MyFeedback /> },
        ]}
      />
    </Drawer>
  );
}
