import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Empty, Input, InputNumber, Skeleton, Space, Tooltip } from 'antd';
import { getDocument, GlobalWorkerOptions, TextLayer, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { http } from '../../api/http';
import { matchTerms, spanMatches } from './match';
import { settle } from '../../api/request';

// This module is only loaded by /pdfDetail (React.lazy), so pdf.js never weighs on other pages.
GlobalWorkerOptions.workerSrc = workerUrl;

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

async function loadPdf(docId: number): Promise<PDFDocumentProxy> {
  // The request layer adds the login header; pdf.js gets the bytes, never a URL it would fetch unauthenticated.
  const res = await http.get<ArrayBuffer>('/knowledge/doc/file', { params: { id: docId }, responseType: 'arraybuffer' });
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/pdf')) throw new Error('文档不存在或无法打开');
  return getDocument({ data: new Uint8Array(res.data), isEvalSupported: false, enableXfa: false }).promise;
}

function Thumb(props: { pdf: PDFDocumentProxy; n: number; active: boolean; hits: number; onClick(): void }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Thumbnails are drawn only once they scroll into view: a 500-page document stays cheap.
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setSeen(true), { rootMargin: '200px' });
    io.observe(el);
    return () => io.disconnect();
  }, []);
  useEffect(() => {
    if (!seen) return;
    let cancelled = false;
    settle(
      props.pdf.getPage(props.n).then((page) => {
        const canvas = ref.current;
        if (cancelled || !canvas) return;
        const viewport = page.getViewport({ scale: 0.18 });
        canvas.width = Math.ceil(viewport.width);
        canvas.height = Math.ceil(viewport.height);
        void page.render({ canvas, viewport }).promise.catch(() => undefined);
      }),
    );
    return () => {
      cancelled = true;
    };
  }, [seen, props.pdf, props.n]);
  return (
    <button type="button" className={`pd-thumb${props.active ? ' active' : ''}`} onClick={props.onClick} data-testid="pd-thumb" aria-label={`第${props.n}页`}>
      <canvas ref={ref} width={107} height={151} />
      <span>
        {props.n}
        {props.hits > 0 && <em className="pd-thumb-hits">{props.hits}</em>}
      </span>
    </button>
  );
}

export default function PdfViewer(props: { docId: number; initialPage: number; q: string }) {
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState(props.initialPage);
  const [zoom, setZoom] = useState(1.25);
  const [query, setQuery] = useState(props.q);
  const [pageTexts, setPageTexts] = useState<string[] | null>(null);
  const [marked, setMarked] = useState(0);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const pageRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let doc: PDFDocumentProxy | null = null;
    loadPdf(props.docId)
      .then((d) => {
        doc = d;
        setPdf(d);
        setPage((p) => Math.min(Math.max(1, p), d.numPages));
      })
      .catch((e: unknown) => setError(e instanceof Error && e.message ? e.message : '文档加载失败'));
    return () => settle(doc?.destroy());
  }, [props.docId]);

  // Text of every page, for in-document search (read once, after the first page is on screen).
  useEffect(() => {
    if (!pdf) return;
    let cancelled = false;
    settle(
      (async () => {
        const texts: string[] = [];
        for (let n = 1; n <= pdf.numPages && !cancelled; n++) {
          const content = await (await pdf.getPage(n)).getTextContent();
          texts.push(content.items.map((i) => ('str' in i ? i.str : '')).join(''));
        }
        if (!cancelled) setPageTexts(texts);
      })(),
    );
    return () => {
      cancelled = true;
    };
  }, [pdf]);

  const terms = useMemo(() => matchTerms(query), [query]);
  const hitsPerPage = useMemo(() => (pageTexts ?? []).map((t) => (terms.length ? terms.reduce((n, term) => n + (t.split(term).length - 1), 0) : 0)), [pageTexts, terms]);
  const hitPages = useMemo(() => hitsPerPage.flatMap((h, i) => (h > 0 ? [i + 1] : [])), [hitsPerPage]);

  const render = useCallback(async () => {
    if (!pdf || !canvasRef.current || !textRef.current || !pageRef.current) return;
    const p = await pdf.getPage(page);
    const viewport = p.getViewport({ scale: zoom });
    const ratio = window.devicePixelRatio || 1;
    const canvas = canvasRef.current;
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    canvas.style.width = `${Math.floor(viewport.width)}px`;
    canvas.style.height = `${Math.floor(viewport.height)}px`;
    pageRef.current.style.setProperty('--scale-factor', String(zoom));
    pageRef.current.style.setProperty('--total-scale-factor', String(zoom));
    pageRef.current.style.width = `${Math.floor(viewport.width)}px`;
    pageRef.current.style.height = `${Math.floor(viewport.height)}px`;
    await p.render({ canvas, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined }).promise;
    const layer = textRef.current;
    layer.replaceChildren();
    await new TextLayer({ textContentSource: p.streamTextContent(), container: layer, viewport }).render();
    // The passage (or the searched words) is marked on the page and scrolled into view.
    let count = 0;
    let first: HTMLElement | null = null;
    for (const span of layer.querySelectorAll('span')) {
      if (span.children.length || !spanMatches(span.textContent ?? '', query, terms)) continue;
      span.classList.add('pd-hl');
      count += 1;
      first ??= span;
    }
    setMarked(count);
    first?.scrollIntoView({ block: 'center' });
  }, [pdf, page, zoom, query, terms]);

  useEffect(() => {
    render().catch(() => undefined);
  }, [render]);

  if (error) return <Alert type="error" showIcon data-testid="pd-error" title="无法打开文档" description={error} />;
  if (!pdf) return <Skeleton active paragraph={{ rows: 12 }} data-testid="pd-loading" />;
  const go = (n: number) => setPage(Math.min(Math.max(1, n), pdf.numPages));
  const zi = ZOOMS.indexOf(zoom);
  const nextHit = hitPages.find((n) => n > page) ?? hitPages[0];

  return (
    <div className="pd-layout">
      <nav className="pd-thumbs" data-testid="pd-thumbs">
        {Array.from({ length: pdf.numPages }, (_, i) => (
          <Thumb key={i + 1} pdf={pdf} n={i + 1} active={page === i + 1} hits={hitsPerPage[i] ?? 0} onClick={() => go(i + 1)} />
        ))}
      </nav>
      <div className="pd-main">
        <Space wrap className="pd-toolbar">
          <Button onClick={() => go(page - 1)} disabled={page <= 1} data-testid="pd-prev">
            上一页
          </Button>
          <span>
            第 <InputNumber size="small" min={1} max={pdf.numPages} value={page} onChange={(v) => v && go(v)} data-testid="pd-page" /> / {pdf.numPages} 页
          </span>
          <Button onClick={() => go(page + 1)} disabled={page >= pdf.numPages} data-testid="pd-next">
            下一页
          </Button>
          <Button onClick={() => setZoom(ZOOMS[Math.max(0, zi - 1)]!)} disabled={zi <= 0} aria-label="缩小">
            －
          </Button>
          <span data-testid="pd-zoom">{Math.round(zoom * 100)}%</span>
          <Button onClick={() => setZoom(ZOOMS[Math.min(ZOOMS.length - 1, zi + 1)]!)} disabled={zi >= ZOOMS.length - 1} aria-label="放大">
            ＋
          </Button>
          <Input.Search placeholder="在文档中查找" defaultValue={props.q} allowClear onSearch={(v) => setQuery(v.trim())} style={{ width: 240 }} data-testid="pd-search" />
          {query && pageTexts && (
            <span className="muted" data-testid="pd-hit-pages">
              {hitPages.length ? `${hitPages.length} 页有匹配` : '没有匹配'}
              {hitPages.length > 0 && nextHit !== undefined && (
                <Tooltip title="下一个匹配的页">
                  <Button size="small" type="link" onClick={() => go(nextHit)}>
                    下一处
                  </Button>
                </Tooltip>
              )}
            </span>
          )}
        </Space>
        <div className="pd-canvas-wrap">
          <div className="pd-page" ref={pageRef} data-testid="pd-page-view" data-page={page} data-marked={marked}>
            <canvas ref={canvasRef} />
            <div className="textLayer" ref={textRef} />
          </div>
        </div>
        {query && marked === 0 && pageTexts && hitPages.length === 0 && <Empty description="本文档中没有找到这段文字" />}
      </div>
    </div>
  );
}
