import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorCode, writingLimits, type HomeAbilityId, type HomeAbilityItem } from '@inkstone/shared';
import { useGlobalStore } from '../../stores/global';
import { useHomeInputStore, type HomeInputInfo } from '../../stores/home-input';
import { toast } from '../../features/notifications/toasts';
import { isApiError } from '../../api/request';
import { writingApi } from '../../api/writing';
import { queryKeys } from '../../api/query-keys';
import { buildTaskContent, startProblem } from '../../features/writing/home-helpers';
import { clearSnapshot } from '../../features/writing/task-stream';
import { knowledgeRefs, useKnowledgeQuoteStore } from '../../features/knowledge/knowledge-quote';
import { readGraphicConfig, useGraphicStart } from '../../features/graphic/use-graphic-start';
import { asText, asWriteType, fileIds } from './home-input-sync';

/** The home input box: what is typed (per article/graphic box), its choices, and starting a writing task. */
export function useHomeForm(loggedIn: boolean) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const createType = useHomeInputStore((s) => s.createType);
  const input = useHomeInputStore((s) => s[s.createType]);
  const update = useHomeInputStore((s) => s.update);
  const [starting, setStarting] = useState(false);
  const [uploading, setUploading] = useState(false);

  const top = asText(input.editorContent.top);
  const bottom = asText(input.editorContent.bottom);
  const writeType = asWriteType(input.writeType);
  const quoted = fileIds(input.writeFileList);
  const set = (patch: Partial<HomeInputInfo>) => update(createType, patch);
  const setDoc = (which: 'top' | 'bottom', value: string) => set({ editorContent: { ...input.editorContent, [which]: value } });

  const models = useQuery({ queryKey: queryKeys.writing.models, queryFn: writingApi.models, enabled: loggedIn, staleTime: 600_000 });
  const search = useQuery({ queryKey: queryKeys.writing.searchStatus, queryFn: writingApi.searchStatus, enabled: loggedIn, staleTime: 600_000 });
  const personas = useQuery({ queryKey: queryKeys.persona.list, queryFn: writingApi.personas, enabled: loggedIn });
  const files = useQuery({ queryKey: queryKeys.writing.files, queryFn: writingApi.files, enabled: loggedIn });
  const abilityTypes = useQuery({ queryKey: queryKeys.writing.abilityTypes, queryFn: writingApi.abilityTypes, staleTime: 600_000 });
  // The list lives in the article box's state (spec: abilityTypeList), which a reset keeps.
  const abilityTypeList = useHomeInputStore((s) => s.article.abilityTypeList) as HomeAbilityItem[];
  useEffect(() => {
    if (abilityTypes.data) update('article', { abilityTypeList: abilityTypes.data });
  }, [abilityTypes.data, update]);
  const abilityType = input.abilityType && abilityTypeList.some((a) => a.id === input.abilityType) ? input.abilityType : null;

  const defaultModel = models.data?.find((m) => m.isDefault)?.id ?? models.data?.[0]?.id;
  const modelId = input.modelConfigType && models.data?.some((m) => m.id === input.modelConfigType) ? input.modelConfigType : defaultModel;
  const model = models.data?.find((m) => m.id === modelId);
  const searchOn = search.data?.enabled === true;
  const graphic = createType === 'graphic';
  const graphicTask = useGraphicStart();
  const graphicConfig = readGraphicConfig(input.graphicModelConfig);

  const requireLogin = () => {
    if (loggedIn) return true;
    useGlobalStore.getState().openModal('login');
    toast.message('info', '请先登录后再开始写作', 2);
    return false;
  };

  const start = async () => {
    if (!requireLogin()) return;
    const problem = startProblem(writeType, top, bottom);
    if (problem) {
      toast.message('warning', problem, 2);
      return;
    }
    if (graphic) {
      await graphicTask.start({
        writeType,
        content: buildTaskContent(writeType, top, bottom),
        personaId: input.personaType ? Number(input.personaType) : null,
        quoteFileIds: quoted,
        knowledge: knowledgeRefs(useKnowledgeQuoteStore.getState().picked),
        onlineSearch: searchOn && input.onlineSearch,
        modelConfigType: modelId ?? null,
        ...(graphicConfig.contentCards ? { contentCards: graphicConfig.contentCards } : {}),
        pictureMode: graphicConfig.pictureMode,
      });
      return;
    }
    setStarting(true);
    try {
      const { taskId } = await writingApi.createTask({
        writeType,
        content: buildTaskContent(writeType, top, bottom),
        personaId: input.personaType ? Number(input.personaType) : null,
        quoteFileIds: quoted,
        knowledge: knowledgeRefs(useKnowledgeQuoteStore.getState().picked),
        onlineSearch: searchOn && input.onlineSearch,
        modelConfigType: modelId ?? null,
        abilityType: abilityType as HomeAbilityId | null,
      });
      clearSnapshot();
      navigate(`/editor?taskId=${encodeURIComponent(taskId)}`);
    } catch (e) {
      // mp/task/create is a background call for the request layer (spec section 4), so it stays quiet: say why here.
      if (isApiError(e) && e.kind === 'code') {
        if (e.code === ErrorCode.SENSITIVE_CONTENT) toast.message('warning', '描述词存在敏感内容', 3);
        else if (e.code !== ErrorCode.POINTS_INSUFFICIENT && e.code !== 401 && e.code !== 430) toast.message('error', e.message || '创建写作任务失败', 3);
      } else if (isApiError(e) && e.kind !== 'cancel') toast.message('error', e.message, 3);
      setStarting(false);
    }
  };

  const onFile = async (file: File | undefined) => {
    if (!file || !requireLogin()) return;
    if (quoted.length >= writingLimits.quoteFilesMax) {
      toast.message('warning', `最多引用${writingLimits.quoteFilesMax}个文件`, 2);
      return;
    }
    setUploading(true);
    try {
      const f = await writingApi.uploadFile(file);
      await qc.invalidateQueries({ queryKey: queryKeys.writing.files });
      set({ writeFileList: [...quoted, f.id] });
      toast.message('success', `已引用 ${f.name}`, 2);
    } catch {
      // the request layer showed the server's message
    } finally {
      setUploading(false);
    }
  };

  return {
    createType,
    input,
    top,
    bottom,
    writeType,
    quoted,
    set,
    setDoc,
    graphic,
    graphicTask,
    graphicConfig,
    loggedIn,
    models,
    search,
    personas,
    files,
    abilityTypeList,
    abilityType,
    modelId,
    model,
    searchOn,
    starting,
    uploading,
    requireLogin,
    start,
    onFile,
  };
}

export type HomeForm = ReturnType<typeof useHomeForm>;
