import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Form, Input, Modal, Popconfirm, Progress, Radio, Select, Space, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { adminRoleAtLeast, noticeAudienceLabels, type AdminNotice } from '@inkstone/shared';
import type { AdminMe } from '../../api/admin';
import { dateTime } from '../../features/vip/format';
import { adminApi } from './admin-api';

const PAGE_SIZE = 20;
const STATUS: Record<AdminNotice['status'], { label: string; color: string }> = {
  scheduled: { label: '待发布', color: 'gold' },
  published: { label: '已发布', color: 'green' },
  withdrawn: { label: '已撤回', color: 'default' },
};

/** 通知: broadcasts with their read rates; operators compose (rich text), schedule and withdraw. */
export default function NoticesPage({ me }: { me: AdminMe }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [pageNum, setPageNum] = useState(1);
  const [composing, setComposing] = useState(false);
  const canWrite = adminRoleAtLeast(me.role, 'operator');
  const list = useQuery({ queryKey: ['admin', 'notices', pageNum], queryFn: () => adminApi.notices(pageNum, PAGE_SIZE), placeholderData: keepPreviousData, retry: false });
  const withdraw = useMutation({
    mutationFn: (id: number) => adminApi.withdrawNotice(id),
    onSuccess: async () => {
      message.success('已撤回，用户将不再看到该通知');
      await queryClient.invalidateQueries({ queryKey: ['admin', 'notices'] });
    },
  });

  return (
    <Card title="通知" extra={canWrite ? <Button onClick={() => setComposing(true)}>发布通知</Button> : null} data-testid="admin-notices">
      <Table<AdminNotice>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.records ?? []}
        pagination={{ current: pageNum, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPageNum, showSizeChanger: false }}
        columns={[
          { title: '标题', dataIndex: 'title' },
          {
            title: '对象',
            dataIndex: 'audience',
            render: (a: AdminNotice['audience'], r) => (a === 'users' ? `${noticeAudienceLabels[a]}（${r.userIds.length}人）` : noticeAudienceLabels[a]),
          },
          { title: '状态', dataIndex: 'status', render: (s: AdminNotice['status']) => <Tag color={STATUS[s].color}>{STATUS[s].label}</Tag> },
          { title: '发布时间', dataIndex: 'publishedAt', render: (t: string) => dateTime(t) },
          {
            title: '阅读率',
            key: 'rate',
            render: (_: unknown, r) => (
              <Space>
                <Progress type="circle" size={28} percent={Math.round((r.readRate ?? 0) * 100)} />
                <span>{`${r.readCount} / ${r.audienceSize}`}</span>
              </Space>
            ),
          },
          {
            title: '',
            key: 'op',
            render: (_: unknown, r) =>
              canWrite && r.status !== 'withdrawn' ? (
                <Popconfirm title="撤回后用户将不再看到该通知，确定撤回？" onConfirm={() => withdraw.mutate(r.id)}>
                  <Button size="small" danger>
                    撤回
                  </Button>
                </Popconfirm>
              ) : null,
          },
        ]}
      />
      {composing ? <ComposeModal onClose={() => setComposing(false)} /> : null}
    </Card>
  );
}

interface ComposeForm {
  title: string;
  audience: AdminNotice['audience'];
  userIds?: string[];
  publishAt?: Dayjs | null;
}

function ComposeModal({ onClose }: { onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ComposeForm>();
  const audience = Form.useWatch('audience', form);
  const editor = useEditor({ extensions: [StarterKit], content: '' });
  const create = useMutation({
    mutationFn: (v: ComposeForm) =>
      adminApi.createNotice({
        title: v.title,
        content: editor?.getHTML() ?? '',
        audience: v.audience,
        userIds: v.audience === 'users' ? (v.userIds ?? []).map(Number) : undefined,
        publishAt: v.publishAt ? v.publishAt.toISOString() : undefined,
      }),
    onSuccess: async (n) => {
      message.success(n.status === 'scheduled' ? `已定时，将于 ${dateTime(n.publishedAt)} 发布` : '已发布');
      await queryClient.invalidateQueries({ queryKey: ['admin', 'notices'] });
      onClose();
    },
  });
  const tool = (label: string, run: () => void, active: boolean) => (
    <Button size="small" type={active ? 'primary' : 'default'} onMouseDown={(e) => e.preventDefault()} onClick={run}>
      {label}
    </Button>
  );

  return (
    <Modal open title="发布通知" width={720} onCancel={onClose} onOk={() => form.submit()} okText="发布" confirmLoading={create.isPending} destroyOnHidden>
      <Form<ComposeForm> form={form} layout="vertical" initialValues={{ audience: 'all' }} onFinish={(v) => create.mutate(v)}>
        <Form.Item name="title" label="标题" rules={[{ required: true, message: '请填写标题' }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item label="正文" required>
          <Space size={4} style={{ marginBottom: 8 }}>
            {tool('加粗', () => editor?.chain().focus().toggleBold().run(), !!editor?.isActive('bold'))}
            {tool('斜体', () => editor?.chain().focus().toggleItalic().run(), !!editor?.isActive('italic'))}
            {tool('标题', () => editor?.chain().focus().toggleHeading({ level: 3 }).run(), !!editor?.isActive('heading'))}
            {tool('列表', () => editor?.chain().focus().toggleBulletList().run(), !!editor?.isActive('bulletList'))}
            {tool('引用', () => editor?.chain().focus().toggleBlockquote().run(), !!editor?.isActive('blockquote'))}
          </Space>
          <div className="admin-notice-editor" data-testid="notice-editor" style={{ border: '1px solid #d9d9d9', borderRadius: 6, minHeight: 160, padding: '4px 11px' }}>
            <EditorContent editor={editor} />
          </div>
        </Form.Item>
        <Form.Item name="audience" label="发送对象">
          <Radio.Group
            options={[
              { value: 'all', label: '全部用户' },
              { value: 'users', label: '指定用户' },
              { value: 'vip', label: '会员用户' },
            ]}
          />
        </Form.Item>
        {audience === 'users' ? (
          <Form.Item name="userIds" label="用户 ID（回车分隔）" rules={[{ required: true, message: '请填写至少一个用户 ID' }]}>
            <Select mode="tags" tokenSeparators={[',', '，', ' ']} open={false} />
          </Form.Item>
        ) : null}
        <Form.Item name="publishAt" label="定时发布（留空则立即发布）">
          <DatePicker showTime />
        </Form.Item>
      </Form>
    </Modal>
  );
}
