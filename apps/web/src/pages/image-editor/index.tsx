import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Alert, Button, Empty, Skeleton } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { CardAspect, GraphicTaskInfo } from '@inkstone/shared';
import { graphicApi } from '../../api/graphic';
import { queryKeys } from '../../api/query-keys';
import { PageFrame } from '../../components/page-frame';
import { toast } from '../../features/notifications/toasts';
import { xhsEditorPath } from '../../features/graphic/use-graphic-start';
import '../../features/graphic/graphic.css';
import { settle } from '../../api/request';

// konva is loaded only here, so neither the home page nor /xhsEditor carries it.
const CanvasEditor = lazy(() => import('../../features/graphic/image-editor/canvas-editor'));

export default function ImageEditorPage() {
  const { taskId = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const index = Math.max(0, Number(params.get('card') ?? 0) || 0);
  const info = useQuery({ queryKey: queryKeys.graphic.info(taskId), queryFn: () => graphicApi.info(taskId), enabled: !!taskId });
  const [saving, setSaving] = useState(false);
  const back = () => {
    navigate(xhsEditorPath(taskId));
  };
  const card = info.data?.cards[index];

  const save = async (png: Blob, aspect: CardAspect) => {
    setSaving(true);
    try {
      const { cards } = await graphicApi.uploadImage(taskId, index, png, `card-${index + 1}.png`, aspect);
      qc.setQueryData<GraphicTaskInfo>(queryKeys.graphic.info(taskId), (old) => (old ? { ...old, cards } : old));
      toast.message('success', '已保存到卡片', 2);
      back();
    } catch {
      // the request layer showed why
    } finally {
      setSaving(false);
    }
  };

  let content: React.ReactNode;
  if (!taskId) content = <Empty description="缺少图文任务" />;
  else if (info.isPending) content = <Skeleton active paragraph={{ rows: 8 }} />;
  else if (info.isError)
    content = <Alert type="error" showIcon title="图文加载失败" description={info.error.message} action={<Button onClick={() => info.refetch()}>重试</Button>} />;
  else if (!card || !card.imageUrl)
    content = (
      <Empty description={`没有第${index + 1}张图片`}>
        <Link to={xhsEditorPath(taskId)}>返回图文编辑</Link>
      </Empty>
    );
  else
    content = (
      <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
        <CanvasEditor imageUrl={card.imageUrl} saving={saving} onSave={(png, aspect) => settle(save(png, aspect))} onCancel={back} />
      </Suspense>
    );

  return (
    <PageFrame testId="page-imageEditor" title={card ? `编辑第${index + 1}张图片` : '图片编辑'} extra={taskId ? <Link to={xhsEditorPath(taskId)}>返回图文编辑</Link> : null}>
      {content}
    </PageFrame>
  );
}
