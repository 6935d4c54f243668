import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useNavigate, Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Input, Segmented, Select, Switch, Tag, Tooltip } from 'antd';
import { PaperClipOutlined } from '@ant-design/icons';
import { ErrorCode, writingLimits, type WriteType } from '@inkstone/shared';
import { PageFrame } from '../../components/page-frame';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { useHomeInputStore, type CreateType, type HomeInputInfo } from '../../stores/home-input';
import { toast } from '../../features/notifications/toasts';
import { LS, lsGet } from '../../lib/storage-keys';
import { isApiError } from '../../api/request';
import { writingApi, type SavedHomeInput } from '../../api/writing';
import { buildTaskContent, localDate, startProblem, upcomingFestivals } from '../../features/writing/home-helpers';
import { clearSnapshot } from '../../features/writing/task-stream';
import '../../features/writing/writing.css';
import { KnowledgeQuote, knowledgeRefs, useKnowledgeQuoteStore } from '../../features/knowledge/knowledge-quote';

const HomeTour = lazy(() => import('../../features/modals/home-tour'));

const writeTypeOptions: { value: WriteType; label: string }[] = [
  { value: 'deep', label: '深度写作' },
  { value: 'quick', label: '快速写作' },
  { value: 'imitate', label: '仿写' },
  { value: 'rewrite', label: '改写' },
];

const bottomLabel: Record<WriteType, string> = {
  deep: '补充素材或要求（可选）',
  quick: '补充素材或要求（可选）',
  imitate: '粘贴要仿写的范文',
  rewrite: '粘贴需要改写的内容',
};

const SAVE_DEBOUNCE_MS = 800;
const asText = (v: unknown) => (typeof v === 'string' ? v : '');
const asWriteType = (v: string): WriteType => (writeTypeOptions.some((o) => o.value === v) ? (v as WriteType) : 'deep');
const fileIds = (v: unknown[]) => v.filter((x): x is number => typeof x === 'number');

function toSaved(createType: CreateType, i: HomeInputInfo): SavedHomeInput {
  return {
    createType,
    editorContent: { top: asText(i.editorContent.top), bottom: asText(i.editorContent.bottom) },
    writeType: asWriteType(i.writeType),
    onlineSearch: i.onlineSearch,
    quoteFileIds: fileIds(i.writeFileList).slice(0, writingLimits.quoteFilesMax),
    personaId: i.personaType ? Number(i.personaType) : null,
    abilityType: i.abilityType,
    modelConfigType: i.modelConfigType,
  };
}

function fromSaved(s: SavedHomeInput): Partial<HomeInputInfo> {
  return {
    editorContent: { top: s.editorContent.top, bottom: s.editorContent.bottom },
    writeType: s.writeType,
    onlineSearch: s.onlineSearch,
    writeFileList: s.quoteFileIds,
    personaType: s.personaId ? String(s.personaId) : null,
    abilityType: s.abilityType,
    modelConfigType: s.modelConfigType,
  };
}

/** Loads the saved input once per login and saves edits after a pause; article and graphic apart. */
function useHomeInputSync(enabled: boolean) {
  const loaded = useRef<Record<CreateType, boolean>>({ article: false, graphic: false });
  const lastSaved = useRef<Record<CreateType, string>>({ article: '', graphic: '' });
  const article = useHomeInputStore((s) => s.article);
  const graphic = useHomeInputStore((s) => s.graphic);

  useEffect(() => {
    if (!enabled) return;
    let alive = true;
    for (const t of ['article', 'graphic'] as const) {
      writingApi
        .homeInput(t)
        .then((saved) => {
          if (!alive) return;
          useHomeInputStore.getState().update(t, fromSaved(saved));
          lastSaved.current[t] = JSON.stringify(toSaved(t, useHomeInputStore.getState()[t]));
        })
        .catch(() => {})
        .finally(() => {
          if (alive) loaded.current[t] = true;
        });
    }
    return () => {
      alive = false;
    };
  }, [enabled]);

  useEffect(() => {
    if (!enabled) return;
    const timers = (['article', 'graphic'] as const).map((t) =>
      window.setTimeout(() => {
        if (!loaded.current[t]) return;
        const body = toSaved(t, useHomeInputStore.getState()[t]);
        const key = JSON.stringify(body);
        if (key === lastSaved.current[t]) return;
        lastSaved.current[t] = key;
        writingApi.saveHomeInput(body).catch(() => {
          lastSaved.current[t] = '';
        });
      }, SAVE_DEBOUNCE_MS),
    );
    return () => timers.forEach((id) => window.clearTimeout(id));
  }, [enabled, article, graphic]);
}

export default function HomePage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const isLogin = useIsLogin();
  const loggedIn = isLogin === true;
  const providedProfile = useGlobalStore((s) => s.modalVisibleMap.isProvidedProfile);
  const reward = useGlobalStore((s) => s.userReward);
  const createType = useHomeInputStore((s) => s.createType);
  const input = useHomeInputStore((s) => s[s.createType]);
  const update = useHomeInputStore((s) => s.update);
  const setCreateType = useHomeInputStore((s) => s.setCreateType);
  const reset = useHomeInputStore((s) => s.reset);
  const inputRef = useRef<HTMLDivElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [starting, setStarting] = useState(false);
  const [uploading, setUploading] = useState(false);
  const showTour = loggedIn && providedProfile === true && !lsGet(LS.tourHomeDone);
  useHomeInputSync(loggedIn);

  const top = asText(input.editorContent.top);
  const bottom = asText(input.editorContent.bottom);
  const writeType = asWriteType(input.writeType);
  const quoted = fileIds(input.writeFileList);
  const set = (patch: Partial<HomeInputInfo>) => update(createType, patch);
  const setDoc = (which: 'top' | 'bottom', value: string) => set({ editorContent: { ...input.editorContent, [which]: value } });

  const styles = useQuery({ queryKey: ['writing', 'styles'], queryFn: writingApi.styles, staleTime: 3600_000 });
  const year = new Date().getFullYear();
  const festivals = useQuery({ queryKey: ['writing', 'festivals', year], queryFn: () => writingApi.festivals(year), staleTime: 3600_000 });
  const words = useQuery({ queryKey: ['writing', 'words'], queryFn: writingApi.words, enabled: loggedIn, staleTime: 600_000 });
  const models = useQuery({ queryKey: ['writing', 'models'], queryFn: writingApi.models, enabled: loggedIn, staleTime: 600_000 });
  const search = useQuery({ queryKey: ['writing', 'search-status'], queryFn: writingApi.searchStatus, enabled: loggedIn, staleTime: 600_000 });
  const personas = useQuery({ queryKey: ['persona', 'list'], queryFn: writingApi.personas, enabled: loggedIn });
  const files = useQuery({ queryKey: ['writing', 'files'], queryFn: writingApi.files, enabled: loggedIn });

  const defaultModel = models.data?.find((m) => m.isDefault)?.id ?? models.data?.[0]?.id;
  const modelId = input.modelConfigType && models.data?.some((m) => m.id === input.modelConfigType) ? input.modelConfigType : defaultModel;
  const searchOn = search.data?.enabled === true;
  const graphic = createType === 'graphic';

  const requireLogin = () => {
    if (loggedIn) return true;
    useGlobalStore.getState().openModal('login');
    toast.message('info', '请先登录后再开始写作', 2);
    return false;
  };

  const start = async () => {
    if (!requireLogin() || graphic) return;
    const problem = startProblem(writeType, top, bottom);
    if (problem) {
      toast.message('warning', problem, 2);
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
    if (fileRef.current) fileRef.current.value = '';
    if (!file || !requireLogin()) return;
    if (quoted.length >= writingLimits.quoteFilesMax) {
      toast.message('warning', `最多引用${writingLimits.quoteFilesMax}个文件`, 2);
      return;
    }
    setUploading(true);
    try {
      const f = await writingApi.uploadFile(file);
      await qc.invalidateQueries({ queryKey: ['writing', 'files'] });
      set({ writeFileList: [...quoted, f.id] });
      toast.message('success', `已引用 ${f.name}`, 2);
    } catch {
      // the request layer showed the server's message
    } finally {
      setUploading(false);
    }
  };

  const addWord = (w: string) => setDoc('top', top ? `${top}${/[\s，。,]$/.test(top) ? '' : '，'}${w}` : w);
  const today = localDate();
  const upcoming = upcomingFestivals(festivals.data ?? [], today);

  return (
    <PageFrame testId="page-home" title="今天想写点什么？">
      <div className="home-input" ref={inputRef} data-testid="home-input">
        <Segmented<CreateType>
          value={createType}
          onChange={setCreateType}
          options={[
            { value: 'article', label: '文章' },
            { value: 'graphic', label: '图文' },
          ]}
        />
        {graphic ? <Alert type="info" showIcon title="图文创作即将上线，你可以先写下想法，内容会单独保存。" data-testid="graphic-soon" /> : null}
        <Segmented<WriteType>
          aria-label="写作模式"
          data-testid="write-type"
          value={writeType}
          onChange={(v) => set({ writeType: v })}
          options={writeTypeOptions}
        />
        <Input.TextArea
          aria-label="写作主题"
          placeholder={graphic ? '输入主题，AI 帮你生成小红书图文' : '输入主题、观点或素材，AI 帮你写成文章'}
          autoSize={{ minRows: 3, maxRows: 10 }}
          maxLength={writingLimits.promptMaxChars}
          value={top}
          onChange={(e) => setDoc('top', e.target.value)}
        />
        <Input.TextArea
          aria-label={bottomLabel[writeType]}
          placeholder={bottomLabel[writeType]}
          autoSize={{ minRows: writeType === 'imitate' || writeType === 'rewrite' ? 4 : 2, maxRows: 12 }}
          maxLength={writingLimits.promptMaxChars}
          value={bottom}
          onChange={(e) => setDoc('bottom', e.target.value)}
        />
        {quoted.length ? (
          <div className="quote-list" data-testid="quote-list">
            {quoted.map((id) => {
              const f = files.data?.find((x) => x.id === id);
              return (
                <Tag key={id} closable icon={<PaperClipOutlined />} onClose={() => set({ writeFileList: quoted.filter((x) => x !== id) })}>
                  {f ? `${f.name}（${f.chars}字）` : `文件 #${id}`}
                </Tag>
              );
            })}
          </div>
        ) : null}
        <div className="home-input-bar">
          <Select
            aria-label="人设"
            placeholder="选择人设"
            allowClear
            style={{ width: 150 }}
            value={input.personaType ?? undefined}
            onChange={(v?: string) => set({ personaType: v ?? null })}
            options={(personas.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
            notFoundContent={loggedIn ? <Link to="/accountManager/persona/new">新建人设</Link> : '登录后可使用人设'}
          />
          <Select
            aria-label="写作模型"
            data-testid="model-select"
            placeholder="写作模型"
            style={{ width: 200 }}
            value={modelId}
            onChange={(v: string) => set({ modelConfigType: v })}
            options={(models.data ?? []).map((m) => ({ value: m.id, label: m.label }))}
          />
          <Tooltip title={searchOn ? undefined : (search.data?.reason ?? (loggedIn ? '联网搜索未配置' : '登录后可用'))}>
            <span className="switch-field">
              <Switch
                aria-label="联网搜索"
                size="small"
                disabled={!searchOn}
                checked={searchOn && input.onlineSearch}
                onChange={(v) => set({ onlineSearch: v })}
              />
              联网搜索
            </span>
          </Tooltip>
          <input
            ref={fileRef}
            type="file"
            hidden
            aria-label="上传引用文件"
            data-testid="quote-file-input"
            accept=".docx,.pdf,.txt,.md"
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
          <Button icon={<PaperClipOutlined />} loading={uploading} onClick={() => requireLogin() && fileRef.current?.click()}>
            引用文件
          </Button>
          {files.data?.some((f) => !quoted.includes(f.id)) ? (
            <Select
              aria-label="引用已上传的文件"
              placeholder="引用已上传的文件"
              style={{ width: 160 }}
              value={null}
              onChange={(v: number | null) => v && quoted.length < writingLimits.quoteFilesMax && set({ writeFileList: [...quoted, v] })}
              options={files.data.filter((f) => !quoted.includes(f.id)).map((f) => ({ value: f.id, label: f.name }))}
            />
          ) : null}
          <KnowledgeQuote enabled={loggedIn} />
          <span className="spacer" />
          <Button onClick={reset}>清空</Button>
          <Tooltip title={graphic ? '图文创作即将上线' : undefined}>
            <Button type="primary" onClick={() => void start()} loading={starting} disabled={graphic && loggedIn} data-testid="home-start">
              开始写作
            </Button>
          </Tooltip>
        </div>
      </div>

      <div className="home-suggest">
        {words.data?.length ? (
          <section data-testid="suggest-words">
            <h3>推荐词</h3>
            {words.data.slice(0, 12).map((w) => (
              <Tag.CheckableTag key={w.word} checked={false} onChange={() => addWord(w.word)}>
                {w.word}
              </Tag.CheckableTag>
            ))}
          </section>
        ) : null}
        {upcoming.length ? (
          <section data-testid="festivals">
            <h3>节日节气</h3>
            <ul className="festival-list">
              {upcoming.map((f) => (
                <li key={`${f.date}-${f.name}`}>
                  <button type="button" className="link-button" onClick={() => setDoc('top', f.suggestion)}>
                    <strong>{f.name}</strong> <span className="muted">{f.date.slice(5)}</span> {f.suggestion}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {styles.data?.length ? (
          <section data-testid="style-cards">
            <h3>写作风格</h3>
            <div className="style-cards">
              {styles.data.map((s) => (
                <button
                  type="button"
                  key={s.id}
                  className={`style-card${s.writeType === writeType ? ' active' : ''}`}
                  onClick={() => set({ writeType: s.writeType, editorContent: { ...input.editorContent, top: top || (s.example.startsWith('（') ? '' : s.example) } })}
                >
                  <strong>{s.name}</strong>
                  <span className="muted">{s.description}</span>
                </button>
              ))}
            </div>
          </section>
        ) : styles.isError ? (
          <p className="muted">写作风格加载失败</p>
        ) : null}
      </div>

      {reward ? (
        <p className="muted" data-testid="daily-reward">
          每日登录奖励 {reward.dailyReward} 积分
        </p>
      ) : null}
      {showTour ? (
        <Suspense fallback={null}>
          <HomeTour target={() => inputRef.current} />
        </Suspense>
      ) : null}
    </PageFrame>
  );
}
