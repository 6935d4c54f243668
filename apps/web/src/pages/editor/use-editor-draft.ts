import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useQuery } from '@tanstack/react-query';
import type { GeneratedBy } from '@inkstone/shared';
import { writingApi } from '../../api/writing';
import { queryKeys } from '../../api/query-keys';
import { useTaskStream, clearSnapshot } from '../../features/writing/use-task-stream';
import { markdownToHtml, countWords } from '../../features/writing/markdown';
import { openCitationAt } from '../../features/knowledge/citations';
import type { LoginState } from '../../stores/global';
import { ImageNode } from './image-node';
import { settle } from '../../api/request';

const AUTOSAVE_MS = 1500;
export type SaveState = 'idle' | 'dirty' | 'saving' | 'saved' | 'error';

/** Sets the document; false when this instance was destroyed (its command manager is gone) and a new one must take it. */
function applyHtml(ed: Editor, html: string): boolean {
  try {
    ed.commands.setContent(html, { emitUpdate: false });
    return true;
  } catch {
    return false;
  }
}

/**
 * The editor page's document: the TipTap editor, the writing task streaming into it (read-only until done), the
 * draft it becomes or that the address names, and saving it.
 */
export function useEditorDraft({ taskId, draftParam, isLogin }: { taskId: string | null; draftParam: number | null; isLogin: LoginState }) {
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const [draftId, setDraftId] = useState<number | null>(draftParam);
  const [save, setSave] = useState<SaveState>('idle');
  const [loadError, setLoadError] = useState<string | null>(null);
  const dirty = useRef(false);
  const titleRef = useRef(title);
  const draftIdRef = useRef(draftId);
  useEffect(() => {
    titleRef.current = title;
    draftIdRef.current = draftId;
  }, [title, draftId]);

  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false } }), ImageNode],
    content: '',
    editorProps: {
      attributes: { class: 'article-body', 'data-testid': 'editor-body', 'aria-label': '正文' },
      // A 知识库 citation ([n] or its reference line) opens the passage in the document viewer.
      handleClick: (view, pos) => openCitationAt(view, pos),
    },
    onUpdate: () => {
      dirty.current = true;
      setSave('dirty');
    },
  });
  // The doc, not getText(): the selector also runs while the editor is still being set up, before its schema serialisers exist.
  const words =
    useEditorState({ editor, selector: (c) => (c.editor && !c.editor.isDestroyed ? countWords(c.editor.state.doc.textBetween(0, c.editor.state.doc.content.size, '\n')) : 0) }) ??
    0;

  const stream = useTaskStream(taskId && isLogin === true ? taskId : null, { persist: true });
  // Who is writing: the offline writer's work is labelled beside the text (never inside it, since the body may be published).
  const taskInfo = useQuery({
    queryKey: queryKeys.writing.taskInfo(taskId),
    queryFn: () => writingApi.taskInfo(taskId!),
    enabled: !!taskId && isLogin === true,
    retry: false,
    staleTime: Infinity,
  });
  const [draftBy, setDraftBy] = useState<GeneratedBy | null>(null);
  const offline = (taskId ? taskInfo.data?.generatedBy : draftBy) === 'offline';
  const streaming = !!stream && (stream.status === 'connecting' || stream.status === 'streaming');

  // While the task streams, the editor mirrors it and is read-only; the user's edits begin after done.
  useEffect(() => {
    if (!editor || !stream) return;
    editor.setEditable(!streaming);
    if (streaming || stream.status === 'error') {
      editor.commands.setContent(markdownToHtml(stream.text), { emitUpdate: false });
      if (stream.title) setTitle(stream.title);
    }
  }, [editor, stream, streaming]);

  // The draft arrives asynchronously; the editor instance may have been replaced meanwhile (useEditor recreates it), so
  // the content goes to the live instance, or waits for the next one instead of being lost on a destroyed one.
  const liveEditor = useRef(editor);
  const pendingHtml = useRef<string | null>(null);
  useEffect(() => {
    liveEditor.current = editor;
    if (editor && pendingHtml.current !== null && applyHtml(editor, pendingHtml.current)) pendingHtml.current = null;
  }, [editor]);

  const loadDraft = useCallback(async (id: number) => {
    try {
      const d = await writingApi.draft(id);
      setDraftId(d.id);
      setDraftBy(d.generatedBy ?? null);
      setTitle(d.title);
      const html = d.html || markdownToHtml(d.markdown);
      const ed = liveEditor.current;
      if (!ed || !applyHtml(ed, html)) pendingHtml.current = html;
      dirty.current = false;
      setSave('saved');
      setLoadError(null);
    } catch (e) {
      setLoadError((e as Error).message || '草稿加载失败');
    }
  }, []);

  // The finished task became a draft: show the saved version and make the address point at it, so a reload opens the draft.
  useEffect(() => {
    if (stream?.status !== 'done' || !editor) return;
    clearSnapshot();
    if (stream.draftId) {
      settle(loadDraft(stream.draftId).then(() => navigate(`/editor?draftId=${stream.draftId}`, { replace: true })));
    } else {
      editor.commands.setContent(markdownToHtml(stream.text), { emitUpdate: false });
      setTitle(stream.title);
      dirty.current = true;
      setSave('dirty');
    }
  }, [stream?.status, stream?.draftId, editor]); // eslint-disable-line react-hooks/exhaustive-deps

  const loadedFor = useRef<number | null>(null);
  useEffect(() => {
    if (!editor || !draftParam || taskId || isLogin !== true || loadedFor.current === draftParam) return;
    loadedFor.current = draftParam;
    // Just finished streaming into this very draft: it is already loaded.
    if (draftIdRef.current === draftParam && !editor.isEmpty) return;
    settle(loadDraft(draftParam));
  }, [editor, draftParam, taskId, isLogin, loadDraft]);

  const newDraft = () => {
    clearSnapshot();
    setDraftId(null);
    setDraftBy(null);
    draftIdRef.current = null;
    loadedFor.current = null;
    setTitle('');
    editor?.commands.clearContent(false);
    dirty.current = false;
    setSave('idle');
    navigate('/editor');
  };

  // Saving: one save at a time (a second waits for the first), autosave after a pause in editing, and a last save
  // when the page is left or hidden inside that pause. saveNow answers the draft's id (null when saving failed).
  const saving = useRef<Promise<number | null> | null>(null);
  const saveNow = useCallback(async (): Promise<number | null> => {
    if (!editor) return draftIdRef.current;
    if (saving.current) await saving.current;
    if (!dirty.current && draftIdRef.current) return draftIdRef.current;
    dirty.current = false;
    setSave('saving');
    const p = writingApi
      .saveDraft({ id: draftIdRef.current, title: titleRef.current, html: editor.getHTML() }, { silent: true })
      .then((d) => {
        setDraftId(d.id);
        draftIdRef.current = d.id;
        setSave(dirty.current ? 'dirty' : 'saved');
        return d.id;
      })
      .catch(() => {
        dirty.current = true;
        setSave('error');
        return null;
      })
      .finally(() => {
        saving.current = null;
      });
    saving.current = p;
    return p;
  }, [editor]);

  useEffect(() => {
    if (save !== 'dirty' || streaming || isLogin !== true) return;
    const t = window.setTimeout(() => settle(saveNow()), AUTOSAVE_MS);
    return () => window.clearTimeout(t);
  }, [save, title, words, streaming, isLogin, saveNow]);

  // Leaving inside the autosave delay (another page, a hidden tab) must not lose the last edit: save it on the way out.
  const leaveRef = useRef({ saveNow, canSave: false });
  useEffect(() => {
    leaveRef.current = { saveNow, canSave: !streaming && isLogin === true };
  }, [saveNow, streaming, isLogin]);
  useEffect(() => {
    const flush = () => {
      if (dirty.current && leaveRef.current.canSave) settle(leaveRef.current.saveNow());
    };
    const onHide = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    document.addEventListener('visibilitychange', onHide);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      flush();
    };
  }, []);

  const onTitle = (v: string) => {
    setTitle(v);
    dirty.current = true;
    setSave('dirty');
  };

  return { editor, words, stream, streaming, offline, title, onTitle, draftId, save, loadError, saveNow, newDraft };
}
