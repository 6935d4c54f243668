import { useQuery } from '@tanstack/react-query';
import { Select, Tooltip } from 'antd';
import { create } from 'zustand';
import { knowledgeApi } from '../../api/knowledge';
import { queryKeys } from '../../api/query-keys';

/**
 * 知识库 quoted in the home input: the whole library, folders or documents. The writing pipeline retrieves passages
 * from them for each section and cites them as [n]. Kept in a store so /knowledge can hand a document to the home input.
 */
interface KnowledgeQuoteState {
  /** 'all', 'f:<folderId>' or 'd:<docId>'. */
  picked: string[];
  setPicked(picked: string[]): void;
  quoteDoc(docId: number): void;
}

export const useKnowledgeQuoteStore = create<KnowledgeQuoteState>((set) => ({
  picked: [],
  setPicked: (picked) => set({ picked: picked.includes('all') && picked[picked.length - 1] === 'all' ? ['all'] : picked.filter((p) => p !== 'all' || picked.length === 1) }),
  quoteDoc: (docId) => set((s) => ({ picked: [...new Set([...s.picked.filter((p) => p !== 'all'), `d:${docId}`])] })),
}));

/** The task body's `knowledge`, or undefined when nothing is quoted. */
export function knowledgeRefs(picked: string[]): { docIds: number[]; folderIds: number[]; all: boolean } | undefined {
  if (!picked.length) return undefined;
  const ids = (prefix: string) =>
    picked
      .filter((p) => p.startsWith(prefix))
      .map((p) => Number(p.slice(prefix.length)))
      .filter((n) => Number.isInteger(n) && n > 0);
  return { docIds: ids('d:'), folderIds: ids('f:'), all: picked.includes('all') };
}

export function KnowledgeQuote(props: { enabled: boolean }) {
  const picked = useKnowledgeQuoteStore((s) => s.picked);
  const setPicked = useKnowledgeQuoteStore((s) => s.setPicked);
  const folders = useQuery({ queryKey: queryKeys.knowledge.folders, queryFn: knowledgeApi.folders, enabled: props.enabled, retry: false, staleTime: 30_000 });
  const docs = useQuery({ queryKey: queryKeys.knowledge.quoteDocs, queryFn: () => knowledgeApi.docs({ pageSize: 200 }), enabled: props.enabled, retry: false, staleTime: 30_000 });
  const ready = (docs.data?.records ?? []).filter((d) => d.status === 'ready');
  if (!props.enabled || (!ready.length && !picked.length)) return null;
  return (
    <Tooltip title="写作时从所选资料中检索段落，并在文中标注引用[编号]">
      <Select
        mode="multiple"
        aria-label="引用知识库"
        data-testid="knowledge-quote"
        placeholder="引用知识库"
        allowClear
        maxTagCount={2}
        style={{ minWidth: 160, maxWidth: 320 }}
        value={picked}
        onChange={(v: string[]) => setPicked(v)}
        optionFilterProp="label"
        options={[
          { value: 'all', label: '整个知识库' },
          ...(folders.data?.length ? [{ label: '文件夹', options: folders.data.map((f) => ({ value: `f:${f.id}`, label: `📁 ${f.name}` })) }] : []),
          { label: '文档', options: ready.map((d) => ({ value: `d:${d.id}`, label: d.name })) },
        ]}
      />
    </Tooltip>
  );
}
