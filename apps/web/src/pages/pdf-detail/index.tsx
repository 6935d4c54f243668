import { lazy, Suspense, useEffect, useMemo, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Skeleton, Tag } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { knowledgeApi } from '../../api/knowledge';
import { api } from '../../api/client';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { textRanges } from './match';
import './pdf-detail.css';
import { queryKeys } from '../../api/query-keys';

// pdf.js (about 1 MB with its worker) loads only when a PDF is opened.
const PdfViewer = lazy(() => import('./pdf-viewer'));

/** Non-PDF documents: the parsed text, the passage marked and scrolled to. */
function TextView(props: { docId: number; q: string }) {
  const res = useQuery({ queryKey: queryKeys.knowledge.text(props.docId), queryFn: () => api.get('/knowledge/doc/text', { id: props.docId }), retry: false });
  const first = useRef<HTMLElement | null>(null);
  const parts = useMemo(() => {
    if (!res.data) return [];
    const text = res.data.text;
    const out: Array<string | { mark: string; key: number }> = [];
    let at = 0;
    for (const [s, e] of textRanges(text, props.q)) {
      if (s > at) out.push(text.slice(at, s));
      out.push({ mark: text.slice(s, e), key: s });
      at = e;
    }
    out.push(text.slice(at));
    return out;
  }, [res.data, props.q]);
  // Block body: newer Chromium returns a Promise from scrollIntoView, which React would take for the effect's cleanup.
  useEffect(() => {
    first.current?.scrollIntoView({ block: 'center' });
  }, [parts]);
  if (res.isPending) return <Skeleton active paragraph={{ rows: 12 }} data-testid="pd-loading" />;
  if (res.isError) return <Alert type="error" showIcon data-testid="pd-error" title="无法打开文档" description={res.error instanceof Error ? res.error.message : '请稍后再试'} />;
  let firstSet = false;
  return (
    <article className="pd-text" data-testid="pd-text">
      {parts.map((p, i) => {
        if (typeof p === 'string') return p;
        const ref = firstSet ? undefined : (el: HTMLElement | null) => void (first.current = el);
        firstSet = true;
        return (
          <mark key={`${p.key}-${i}`} ref={ref} data-testid="pd-mark">
            {p.mark}
          </mark>
        );
      })}
      {res.data.truncated && <p className="muted">（文档过长，仅显示前面部分）</p>}
    </article>
  );
}

/** /pdfDetail?fileId=&page=&q= : a library document opened at a page with a passage highlighted. */
export default function PdfDetailPage() {
  const [params] = useSearchParams();
  const isLogin = useIsLogin();
  const docId = Number(params.get('fileId'));
  const page = Math.max(1, Number(params.get('page')) || 1);
  const q = (params.get('q') ?? '').slice(0, 2000);
  const valid = Number.isInteger(docId) && docId > 0;
  const doc = useQuery({ queryKey: queryKeys.knowledge.doc(docId), queryFn: () => knowledgeApi.doc(docId), enabled: valid && isLogin === true, retry: false });

  let body;
  if (isLogin !== true) {
    body = (
      <Empty description="登录后查看文档">
        <Button type="primary" onClick={() => useGlobalStore.getState().openModal('login')}>
          登录 / 注册
        </Button>
      </Empty>
    );
  } else if (!valid) body = <Empty data-testid="pd-invalid" description="缺少文档参数" />;
  else if (doc.isPending) body = <Skeleton active paragraph={{ rows: 12 }} data-testid="pd-loading" />;
  else if (doc.isError)
    body = <Alert type="error" showIcon data-testid="pd-error" title="无法打开文档" description={doc.error instanceof Error ? doc.error.message : '请稍后再试'} />;
  else if (doc.data.status !== 'ready')
    body = <Alert type="info" showIcon title={doc.data.status === 'failed' ? `文档解析失败：${doc.data.errorMsg ?? ''}` : '文档正在解析，请稍后再来'} />;
  else if (doc.data.ext === 'pdf')
    body = (
      <Suspense fallback={<Skeleton active paragraph={{ rows: 12 }} data-testid="pd-loading" />}>
        <PdfViewer docId={docId} initialPage={page} q={q} />
      </Suspense>
    );
  else body = <TextView docId={docId} q={q} />;

  return (
    <section className="page pd-page-root" data-testid="page-pdfDetail">
      <header className="pd-head">
        <Link to="/knowledge">← 知识库</Link>
        <h1 className="page-title" data-testid="pd-title">
          {doc.data?.name ?? '文档'}
        </h1>
        {doc.data?.sourceUrl && (
          <a href={doc.data.sourceUrl} target="_blank" rel="noreferrer noopener">
            原网页
          </a>
        )}
        {doc.data?.pages ? <Tag>{doc.data.pages} 页</Tag> : null}
      </header>
      {body}
    </section>
  );
}
