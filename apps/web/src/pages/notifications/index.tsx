import { useState } from 'react';
import DOMPurify from 'dompurify';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, List, Modal, Segmented, Skeleton, Tag } from 'antd';
import { useNavigate } from 'react-router';
import { formatTimeAgo, type NoticeType } from '@inkstone/shared';
import { PageFrame } from '../../components/page-frame';
import { noticeApi, type NoticeItem } from '../../api/notice';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { toast } from '../../features/notifications/toasts';
import { queryKeys } from '../../api/query-keys';

const PAGE_SIZE = 10;

/** Console notices are HTML (cleaned on the server); cleaned again here before it is shown. */
const NOTICE_HTML = {
  ALLOWED_TAGS: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'h1', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'blockquote', 'a', 'span', 'div'],
  ALLOWED_ATTR: ['href', 'rel'],
};
const plainText = (n: Pick<NoticeItem, 'content' | 'format'>) =>
  n.format === 'html' ? (new DOMParser().parseFromString(DOMPurify.sanitize(n.content, NOTICE_HTML), 'text/html').body.textContent ?? '') : n.content;
const summary = (n: Pick<NoticeItem, 'content' | 'format'>) => {
  const text = plainText(n);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
};
const types: Array<{ value: NoticeType | ''; label: string }> = [
  { value: '', label: '全部' },
  { value: 'system', label: '系统通知' },
  { value: 'activity', label: '活动' },
  { value: 'comment', label: '评论' },
  { value: 'feedbackReply', label: '反馈回复' },
];

/** Only in-app paths are followed: a notice can never send the user to another site. */
const inAppLink = (link: string | null | undefined) => (link && link.startsWith('/') && !link.startsWith('//') ? link : null);

export default function NotificationsPage() {
  const isLogin = useIsLogin();
  const [pageNum, setPageNum] = useState(1);
  const [type, setType] = useState<NoticeType | ''>('');
  const [openId, setOpenId] = useState<NoticeItem['id'] | null>(null);
  const qc = useQueryClient();
  const navigate = useNavigate();

  const list = useQuery({
    queryKey: queryKeys.notice.list.page(pageNum, type),
    queryFn: () => noticeApi.list({ pageNum, pageSize: PAGE_SIZE, ...(type ? { type } : {}) }),
    enabled: isLogin === true,
    retry: false,
  });
  const detail = useQuery({
    queryKey: queryKeys.notice.detail(openId),
    queryFn: () => noticeApi.detail(openId!),
    enabled: openId !== null,
    retry: false,
  });
  const refreshBubble = () => {
    qc.invalidateQueries({ queryKey: queryKeys.notice.list.all });
    void noticeApi.bubble().then(
      (b) => useGlobalStore.getState().setUnreadNoticeNum(b.unreadNoticeNum),
      () => {},
    );
  };
  const readOne = useMutation({ mutationFn: noticeApi.read, onSuccess: refreshBubble });
  const readAll = useMutation({
    mutationFn: noticeApi.readAll,
    onSuccess: () => {
      toast.message('success', '已全部标记为已读', 2);
      refreshBubble();
    },
  });

  const open = (item: NoticeItem) => {
    if (!item.read) readOne.mutate(item.id);
    // A personal notice opens the page it is about (the order, the account's board, the feedback list).
    const link = inAppLink(item.link);
    if (link) navigate(link);
    else setOpenId(item.id);
  };

  let body;
  if (isLogin !== true) {
    body = (
      <Empty description="登录后查看消息通知">
        <Button type="primary" onClick={() => useGlobalStore.getState().openModal('login')}>
          登录
        </Button>
      </Empty>
    );
  } else if (list.isPending) {
    body = <Skeleton active paragraph={{ rows: 4 }} data-testid="notifications-loading" />;
  } else if (list.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        data-testid="notifications-error"
        title="消息加载失败"
        description={list.error instanceof Error ? list.error.message : '请稍后再试'}
        action={<Button onClick={() => list.refetch()}>重试</Button>}
      />
    );
  } else if (!list.data.records.length) {
    body = <Empty data-testid="notifications-empty" description="暂无消息" />;
  } else {
    body = (
      <List
        data-testid="notifications-list"
        dataSource={list.data.records}
        pagination={{
          current: list.data.pageNum,
          pageSize: PAGE_SIZE,
          total: list.data.total,
          onChange: setPageNum,
          hideOnSinglePage: true,
        }}
        renderItem={(item) => (
          <List.Item
            className={item.read ? 'notice read' : 'notice unread'}
            data-testid="notice-item"
            data-link={inAppLink(item.link) ?? undefined}
            style={{ cursor: 'pointer' }}
            onClick={() => open(item)}
            extra={<span className="muted">{formatTimeAgo(item.createdAt)}</span>}
          >
            <List.Item.Meta
              title={
                <>
                  {item.read ? null : <Tag color="red">未读</Tag>}
                  {item.title}
                </>
              }
              description={summary(item)}
            />
          </List.Item>
        )}
      />
    );
  }

  return (
    <PageFrame
      testId="page-notifications"
      title="消息通知"
      extra={
        isLogin === true ? (
          <Button onClick={() => readAll.mutate()} loading={readAll.isPending} data-testid="notifications-read-all">
            全部已读
          </Button>
        ) : null
      }
    >
      <Segmented
        value={type}
        options={types}
        onChange={(v) => {
          setType(v);
          setPageNum(1);
        }}
        style={{ marginBottom: 16 }}
      />
      {body}
      <Modal open={openId !== null} onCancel={() => setOpenId(null)} footer={null} title={detail.data?.title ?? '消息详情'} destroyOnHidden>
        {detail.isPending ? (
          <Skeleton active />
        ) : detail.isError ? (
          <Alert type="error" title="消息详情加载失败" action={<Button onClick={() => detail.refetch()}>重试</Button>} />
        ) : (
          <div data-testid="notice-detail">
            <p className="muted">{formatTimeAgo(detail.data.createdAt)}</p>
            {detail.data.format === 'html' ? (
              <div className="notice-html" dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(detail.data.content, NOTICE_HTML) }} />
            ) : (
              <p style={{ whiteSpace: 'pre-wrap' }}>{detail.data.content}</p>
            )}
            {inAppLink(detail.data.link) ? (
              <Button type="primary" onClick={() => navigate(inAppLink(detail.data.link)!)}>
                去查看
              </Button>
            ) : null}
          </div>
        )}
      </Modal>
    </PageFrame>
  );
}
