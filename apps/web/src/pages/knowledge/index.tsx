import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Dropdown, Empty, Input, List, Modal, Popconfirm, Progress, Select, Skeleton, Table, Tag, Tooltip, Upload } from 'antd';
import { Link, useNavigate } from 'react-router';
import { useKnowledgeQuoteStore } from '../../features/knowledge/knowledge-quote';
import { knowledgeExts, knowledgeLimits } from '@inkstone/shared';
import { PageFrame } from '../../components/page-frame';
import { docViewerHref, knowledgeApi, type FolderFilter, type KnowledgeDoc, type KnowledgeExt, type KnowledgeFolder, type KnowledgeHit } from '../../api/knowledge';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { toast } from '../../features/notifications/toasts';
import { Highlighted } from './highlighted';
import './knowledge.css';
import { queryKeys } from '../../api/query-keys';
import { pollWhile } from '../../features/polling/use-poll';
import { settle } from '../../api/request';

const EXT_LABEL: Record<KnowledgeExt, string> = { pdf: 'PDF', docx: 'Word', md: 'Markdown', txt: '文本', html: '网页' };
const ACCEPT = '.pdf,.docx,.md,.markdown,.txt,.html,.htm';
const PAGE_SIZE = 20;

const size = (b: number) => (b >= 1024 * 1024 ? `${(b / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(b / 1024))} KB`);
const errText = (e: unknown) => (e instanceof Error && e.message ? e.message : '操作失败，请稍后再试');

function StatusCell({ doc }: { doc: KnowledgeDoc }) {
  if (doc.status === 'ready')
    return (
      <Tag color="green" data-testid="doc-status">
        已解析{doc.pages ? ` · ${doc.pages}页` : ''}
      </Tag>
    );
  if (doc.status === 'failed')
    return (
      <Tooltip title={doc.errorMsg ?? '解析失败'}>
        <Tag color="red" data-testid="doc-status">
          解析失败
        </Tag>
      </Tooltip>
    );
  return (
    <div className="kn-progress" data-testid="doc-status">
      <span className="muted">{doc.status === 'queued' ? '排队中' : '解析中'}</span>
      <Progress percent={doc.progress} size="small" />
    </div>
  );
}

/** One upload in flight, shown until it is accepted or refused. */
interface UploadItem {
  uid: string;
  name: string;
  percent: number;
  error?: string;
}

function FolderList(props: { folders: KnowledgeFolder[]; current: FolderFilter; onSelect(f: FolderFilter): void }) {
  const qc = useQueryClient();
  const refresh = () => {
    qc.invalidateQueries({ queryKey: queryKeys.knowledge.all });
  };
  const rename = (f: KnowledgeFolder) => {
    let name = f.name;
    Modal.confirm({
      title: '重命名文件夹',
      icon: null,
      content: <Input defaultValue={f.name} maxLength={knowledgeLimits.folderNameMaxLength} onChange={(e) => (name = e.target.value)} data-testid="folder-rename-input" />,
      okText: '保存',
      cancelText: '取消',
      onOk: async () => {
        await knowledgeApi.renameFolder(f.id, name);
        refresh();
      },
    });
  };
  const remove = (f: KnowledgeFolder) =>
    Modal.confirm({
      title: `删除文件夹“${f.name}”？`,
      content: '其中的文档会移到“未分类”，不会被删除。',
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        await knowledgeApi.deleteFolder(f.id);
        if (props.current === f.id) props.onSelect(undefined);
        refresh();
      },
    });
  const item = (key: FolderFilter, label: string, extra?: React.ReactNode, count?: number) => (
    <li key={String(key ?? 'all')} className={`kn-folder${props.current === key ? ' active' : ''}`}>
      <button type="button" onClick={() => props.onSelect(key)} data-testid={`folder-${key ?? 'all'}`}>
        <span className="kn-folder-name">{label}</span>
        {count !== undefined && <span className="muted">{count}</span>}
      </button>
      {extra}
    </li>
  );
  return (
    <ul className="kn-folders" data-testid="folder-list">
      {item(undefined, '全部文档')}
      {item('root', '未分类')}
      {props.folders.map((f) =>
        item(
          f.id,
          f.name,
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'rename', label: '重命名', onClick: () => rename(f) },
                { key: 'delete', label: '删除', danger: true, onClick: () => remove(f) },
              ],
            }}
          >
            <Button size="small" type="text" aria-label={`管理文件夹${f.name}`}>
              ⋯
            </Button>
          </Dropdown>,
          f.docCount,
        ),
      )}
    </ul>
  );
}

function SearchResults(props: { q: string; folder: FolderFilter; ext: KnowledgeExt | undefined }) {
  const res = useQuery({
    queryKey: queryKeys.knowledge.search(props.q, props.folder, props.ext),
    queryFn: () => knowledgeApi.search({ q: props.q, folderId: props.folder, ext: props.ext, limit: 20 }),
    retry: false,
  });
  if (res.isPending) return <Skeleton active paragraph={{ rows: 3 }} data-testid="search-loading" />;
  if (res.isError)
    return (
      <Alert type="error" showIcon data-testid="search-error" title="检索失败" description={errText(res.error)} action={<Button onClick={() => res.refetch()}>重试</Button>} />
    );
  if (!res.data.hits.length) return <Empty data-testid="search-empty" description={`没有找到与“${props.q}”相关的段落`} />;
  return (
    <List<KnowledgeHit>
      data-testid="search-results"
      dataSource={res.data.hits}
      renderItem={(h) => (
        <List.Item className="kn-hit" data-testid="search-hit">
          <div className="kn-hit-head">
            <Link to={docViewerHref(h.docId, { page: h.page, q: props.q })} data-testid="hit-open">
              {h.docName}
            </Link>
            <span className="muted">
              {h.page ? `第${h.page}页` : EXT_LABEL[h.ext]}
              {h.heading ? ` · ${h.heading}` : ''}
            </span>
          </div>
          <Highlighted text={h.text} ranges={h.highlights} maxChars={240} />
        </List.Item>
      )}
    />
  );
}

function UploadList({ uploads, onClose }: { uploads: UploadItem[]; onClose: (uid: string) => void }) {
  if (!uploads.length) return null;
  return (
    <ul className="kn-uploads" data-testid="upload-list">
      {uploads.map((u) => (
        <li key={u.uid}>
          <span className="kn-upload-name">{u.name}</span>
          {u.error ? (
            <>
              <span className="kn-error" data-testid="upload-error">
                {u.error}
              </span>
              <Button size="small" type="link" onClick={() => onClose(u.uid)}>
                关闭
              </Button>
            </>
          ) : (
            <Progress percent={u.percent} size="small" status="active" />
          )}
        </li>
      ))}
    </ul>
  );
}

/** The documents of the current folder and type, with write / rename / move / delete per row. */
function DocsTable(props: {
  records: KnowledgeDoc[];
  total: number;
  pageNum: number;
  onPage: (n: number) => void;
  folderOptions: { value: number; label: string }[];
  onChanged: () => void;
}) {
  const { records, total, pageNum, onPage, folderOptions, onChanged } = props;
  const navigate = useNavigate();
  const renameDoc = (d: KnowledgeDoc) => {
    let name = d.name;
    Modal.confirm({
      title: '重命名文档',
      icon: null,
      content: <Input defaultValue={d.name} maxLength={knowledgeLimits.docNameMaxLength} onChange={(e) => (name = e.target.value)} data-testid="doc-rename-input" />,
      okText: '保存',
      cancelText: '取消',
      onOk: async () => {
        await knowledgeApi.rename(d.id, name);
        onChanged();
      },
    });
  };

  return (
    <Table<KnowledgeDoc>
      data-testid="docs-table"
      rowKey="id"
      size="middle"
      scroll={{ x: 720 }}
      dataSource={records}
      pagination={{ current: pageNum, pageSize: PAGE_SIZE, total, onChange: onPage, hideOnSinglePage: true, showSizeChanger: false }}
      columns={[
        {
          title: '名称',
          dataIndex: 'name',
          render: (_: string, d) => (
            <span className="kn-doc-name">
              <Tag>{EXT_LABEL[d.ext]}</Tag>
              {d.status === 'ready' ? <Link to={docViewerHref(d.id)}>{d.name}</Link> : <span>{d.name}</span>}
            </span>
          ),
        },
        { title: '状态', dataIndex: 'status', width: 170, render: (_: string, d) => <StatusCell doc={d} /> },
        { title: '大小', dataIndex: 'size', width: 90, render: (b: number) => size(b) },
        { title: '上传时间', dataIndex: 'createdAt', width: 150, render: (t: string) => new Date(t).toLocaleString('zh-CN', { hour12: false }) },
        {
          title: '操作',
          key: 'actions',
          width: 280,
          render: (_: unknown, d) => (
            <span className="row-gap">
              {d.status === 'ready' && (
                <Button
                  size="small"
                  type="link"
                  data-testid="doc-write"
                  onClick={() => {
                    useKnowledgeQuoteStore.getState().quoteDoc(d.id);
                    navigate('/');
                  }}
                >
                  引用写作
                </Button>
              )}
              <Button size="small" type="link" onClick={() => renameDoc(d)}>
                重命名
              </Button>
              <Select<number>
                size="small"
                value={d.folderId ?? 0}
                options={folderOptions}
                style={{ width: 96 }}
                aria-label="移动到文件夹"
                onChange={(v) => settle(knowledgeApi.move(d.id, v === 0 ? null : v).then(onChanged))}
              />
              <Popconfirm title="删除后无法恢复，确定删除？" okText="删除" cancelText="取消" onConfirm={() => knowledgeApi.remove(d.id).then(onChanged)}>
                <Button size="small" type="link" danger data-testid="doc-delete">
                  删除
                </Button>
              </Popconfirm>
            </span>
          ),
        },
      ]}
    />
  );
}

function ImportModal({ open, folderId, onClose, onDone }: { open: boolean; folderId: number | null; onClose: () => void; onDone: () => void }) {
  const [importUrl, setImportUrl] = useState('');
  const importPage = useMutation({
    mutationFn: () => knowledgeApi.importUrl(importUrl.trim(), folderId),
    onSuccess: () => {
      onClose();
      setImportUrl('');
      toast.message('success', '网页已导入，正在解析', 3);
      onDone();
    },
  });
  return (
    <Modal
      title="导入网页"
      open={open}
      okText="导入"
      cancelText="取消"
      confirmLoading={importPage.isPending}
      okButtonProps={{ disabled: !/^https?:\/\/\S+/i.test(importUrl.trim()), 'data-testid': 'kn-import-ok' } as never}
      onOk={() => importPage.mutate()}
      onCancel={onClose}
      destroyOnHidden
    >
      <p className="muted">输入网页地址，服务器会抓取页面并提取正文。</p>
      <Input placeholder="https://" value={importUrl} onChange={(e) => setImportUrl(e.target.value)} onPressEnter={() => importPage.mutate()} data-testid="kn-import-url" />
      {importPage.isError && (
        <div className="kn-error" data-testid="import-error">
          {errText(importPage.error)}
        </div>
      )}
    </Modal>
  );
}

function FolderModal({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (id: number) => void }) {
  const [folderName, setFolderName] = useState('');
  const createFolder = useMutation({
    mutationFn: () => knowledgeApi.createFolder(folderName.trim()),
    onSuccess: (f) => {
      onClose();
      setFolderName('');
      onCreated(f.id);
    },
  });
  return (
    <Modal
      title="新建文件夹"
      open={open}
      okText="创建"
      cancelText="取消"
      confirmLoading={createFolder.isPending}
      okButtonProps={{ disabled: !folderName.trim() }}
      onOk={() => createFolder.mutate()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Input
        placeholder="文件夹名称"
        maxLength={knowledgeLimits.folderNameMaxLength}
        value={folderName}
        onChange={(e) => setFolderName(e.target.value)}
        onPressEnter={() => folderName.trim() && createFolder.mutate()}
        data-testid="folder-name"
      />
    </Modal>
  );
}

export default function KnowledgePage() {
  const isLogin = useIsLogin();
  const qc = useQueryClient();
  const [folder, setFolder] = useState<FolderFilter>(undefined);
  const [ext, setExt] = useState<KnowledgeExt | undefined>(undefined);
  const [pageNum, setPageNum] = useState(1);
  const [q, setQ] = useState('');
  const [uploads, setUploads] = useState<UploadItem[]>([]);
  const [importOpen, setImportOpen] = useState(false);
  const [folderOpen, setFolderOpen] = useState(false);
  const enabled = isLogin === true;

  const folders = useQuery({ queryKey: queryKeys.knowledge.folders, queryFn: knowledgeApi.folders, enabled, retry: false });
  const quota = useQuery({ queryKey: queryKeys.knowledge.quota, queryFn: knowledgeApi.quota, enabled, retry: false });
  // Says whether search is words only or words and meaning, and how many documents still wait for their vectors.
  const searchStatus = useQuery({ queryKey: queryKeys.knowledge.status, queryFn: knowledgeApi.status, enabled, retry: false });
  const docs = useQuery({
    queryKey: queryKeys.knowledge.docs(folder, ext, pageNum),
    queryFn: () => knowledgeApi.docs({ folderId: folder, ext, pageNum, pageSize: PAGE_SIZE }),
    enabled,
    retry: false,
    placeholderData: (prev) => prev,
    // While anything is being parsed, its progress is polled.
    refetchInterval: pollWhile((data) => !!data?.records.some((d) => d.status === 'queued' || d.status === 'parsing'), 1500),
  });
  const parsingNow = docs.data?.records.filter((d) => d.status === 'queued' || d.status === 'parsing').length ?? 0;
  useEffect(() => {
    // A parse that just finished changes folder counts and search results.
    if (parsingNow === 0) {
      qc.invalidateQueries({ queryKey: queryKeys.knowledge.searchAll });
      qc.invalidateQueries({ queryKey: queryKeys.knowledge.status });
    }
  }, [parsingNow, qc]);
  const refresh = () => {
    qc.invalidateQueries({ queryKey: queryKeys.knowledge.all });
  };
  const uploadFolder = typeof folder === 'number' ? folder : undefined;

  const folderOptions = useMemo(() => [{ value: 0, label: '未分类' }, ...(folders.data ?? []).map((f) => ({ value: f.id, label: f.name }))], [folders.data]);

  if (isLogin !== true) {
    return (
      <PageFrame testId="page-knowledge" title="知识库">
        <Empty description="登录后上传资料、整理文档库，写作时一键引用">
          <Button type="primary" onClick={() => useGlobalStore.getState().openModal('login')}>
            登录 / 注册
          </Button>
        </Empty>
      </PageFrame>
    );
  }

  const startUpload = async (file: File) => {
    const uid = `${file.name}-${Date.now()}-${Math.random()}`;
    setUploads((u) => [...u, { uid, name: file.name, percent: 0 }]);
    try {
      await knowledgeApi.upload(file, uploadFolder, (percent) => setUploads((u) => u.map((x) => (x.uid === uid ? { ...x, percent } : x))));
      setUploads((u) => u.filter((x) => x.uid !== uid));
      refresh();
    } catch (e) {
      setUploads((u) => u.map((x) => (x.uid === uid ? { ...x, error: errText(e) } : x)));
    }
  };

  const quotaText = quota.data
    ? `已用 ${quota.data.docs}/${quota.data.maxDocs} 个文档 · ${size(quota.data.bytes)} / ${size(quota.data.maxBytes)}${quota.data.isVip ? '（会员）' : ''}`
    : '';

  return (
    <PageFrame
      testId="page-knowledge"
      title="知识库"
      extra={
        <span className="muted" data-testid="kn-quota">
          {quotaText}
        </span>
      }
    >
      <div className="kn-layout">
        <aside className="kn-side">
          {folders.isPending ? (
            <Skeleton active paragraph={{ rows: 4 }} />
          ) : folders.isError ? (
            <Alert
              type="error"
              title="文件夹加载失败"
              action={
                <Button size="small" onClick={() => folders.refetch()}>
                  重试
                </Button>
              }
            />
          ) : (
            <FolderList
              folders={folders.data}
              current={folder}
              onSelect={(f) => {
                setFolder(f);
                setPageNum(1);
              }}
            />
          )}
          <Button block onClick={() => setFolderOpen(true)} data-testid="folder-create">
            新建文件夹
          </Button>
        </aside>
        <main className="kn-main">
          <div className="kn-toolbar">
            <Upload accept={ACCEPT} multiple showUploadList={false} beforeUpload={(file) => (void startUpload(file), false)}>
              <Button type="primary" data-testid="kn-upload">
                上传文档
              </Button>
            </Upload>
            <Button onClick={() => setImportOpen(true)} data-testid="kn-import">
              导入网页
            </Button>
            <span className="muted kn-hint">支持 PDF、Word(docx)、Markdown、TXT、HTML，单个文件 20MB 以内</span>
          </div>
          <UploadList uploads={uploads} onClose={(uid) => setUploads((all) => all.filter((x) => x.uid !== uid))} />
          <div className="kn-search">
            <Input.Search
              placeholder="搜索知识库中的段落，例如：新能源汽车 补贴政策"
              allowClear
              enterButton="搜索"
              maxLength={knowledgeLimits.searchQueryMaxLength}
              onSearch={(v) => setQ(v.trim())}
              data-testid="kn-search"
            />
            <Select<KnowledgeExt | 'all'>
              value={ext ?? 'all'}
              onChange={(v) => {
                setExt(v === 'all' ? undefined : v);
                setPageNum(1);
              }}
              options={[{ value: 'all', label: '全部类型' }, ...knowledgeExts.map((e) => ({ value: e, label: EXT_LABEL[e] }))]}
              style={{ width: 120 }}
              data-testid="kn-ext"
            />
          </div>
          {searchStatus.data && (
            <div className="muted kn-search-note" data-testid="kn-search-note">
              {searchStatus.data.note}
            </div>
          )}
          {q ? (
            <section className="panel">
              <div className="kn-section-head">
                <h2>检索结果</h2>
                <Button type="link" onClick={() => setQ('')}>
                  返回文档列表
                </Button>
              </div>
              <SearchResults q={q} folder={folder} ext={ext} />
            </section>
          ) : docs.isPending ? (
            <Skeleton active paragraph={{ rows: 5 }} data-testid="docs-loading" />
          ) : docs.isError ? (
            <Alert
              type="error"
              showIcon
              data-testid="docs-error"
              title="文档加载失败"
              description={errText(docs.error)}
              action={<Button onClick={() => docs.refetch()}>重试</Button>}
            />
          ) : !docs.data.records.length && pageNum === 1 ? (
            <Empty data-testid="docs-empty" description={folder === undefined && !ext ? '知识库还是空的：上传文档或导入网页，写作时即可引用' : '这里还没有文档'} />
          ) : (
            <DocsTable records={docs.data.records} total={docs.data.total} pageNum={pageNum} onPage={setPageNum} folderOptions={folderOptions} onChanged={refresh} />
          )}
        </main>
      </div>

      <ImportModal open={importOpen} folderId={uploadFolder ?? null} onClose={() => setImportOpen(false)} onDone={refresh} />
      <FolderModal
        open={folderOpen}
        onClose={() => setFolderOpen(false)}
        onCreated={(id) => {
          setFolder(id);
          refresh();
        }}
      />
    </PageFrame>
  );
}
