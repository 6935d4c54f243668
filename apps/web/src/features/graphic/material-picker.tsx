import { useState } from 'react';
import { Alert, Empty, Input, Modal, Pagination, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { MaterialPhoto } from '@inkstone/shared';
import { graphicApi } from '../../api/graphic';
import { queryKeys } from '../../api/query-keys';

const PER_PAGE = 20;

/**
 * Stock photos for one card's picture (material search). When the server has no photo service it says so here, never
 * an empty result; a picked photo is fetched, checked and cropped by the server.
 */
export function MaterialPicker({ open, initialQuery, onClose, onPick }: { open: boolean; initialQuery: string; onClose(): void; onPick(photo: MaterialPhoto): void }) {
  const [q, setQ] = useState(initialQuery);
  const [page, setPage] = useState(1);
  const status = useQuery({ queryKey: queryKeys.graphic.materialStatus, queryFn: graphicApi.materialStatus, staleTime: 600_000, enabled: open });
  const on = status.data?.enabled === true;
  const results = useQuery({
    queryKey: queryKeys.graphic.materialSearch(q, page),
    queryFn: () => graphicApi.materialSearch(q, page),
    enabled: open && on && !!q.trim(),
    staleTime: 300_000,
  });

  let body: React.ReactNode;
  if (status.isPending) body = <Spin />;
  else if (status.isError) body = <Alert type="error" title="素材服务状态加载失败" />;
  else if (!on)
    body = <Alert type="info" showIcon title={status.data.reason ?? '素材搜索未开启'} data-testid="material-off" description="可以改用卡片模板、上传图片或图片编辑。" />;
  else if (!q.trim()) body = <Empty description="输入关键词搜索图片" />;
  else if (results.isPending) body = <Spin />;
  else if (results.isError) body = <Alert type="error" title={results.error.message || '搜索失败'} />;
  else if (!results.data.items.length) body = <Empty description="没有找到图片，换个关键词试试" />;
  else
    body = (
      <>
        <div className="material-grid" data-testid="material-results">
          {results.data.items.map((p) => (
            <button key={p.id} type="button" className="material-item" onClick={() => onPick(p)} title={p.alt || p.author} data-testid="material-item">
              <img src={p.thumbUrl} alt={p.alt} loading="lazy" />
              <span className="material-author">{p.author}</span>
            </button>
          ))}
        </div>
        {results.data.total > PER_PAGE ? (
          <Pagination size="small" current={page} pageSize={PER_PAGE} total={Math.min(results.data.total, PER_PAGE * 50)} showSizeChanger={false} onChange={setPage} />
        ) : null}
        <p className="muted small">图片来自 {results.data.provider}，使用时请保留作者署名。</p>
      </>
    );

  return (
    <Modal open={open} title="素材图片" footer={null} onCancel={onClose} width={720} destroyOnHidden>
      <Input.Search
        aria-label="搜索素材"
        data-testid="material-search"
        defaultValue={initialQuery}
        placeholder="搜索图片，如：咖啡、露营"
        enterButton="搜索"
        disabled={!on}
        maxLength={100}
        onSearch={(v) => {
          setQ(v.trim());
          setPage(1);
        }}
        style={{ marginBottom: 12 }}
      />
      {body}
    </Modal>
  );
}
