import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AgentAction } from '@inkstone/shared';
import { agentApi, readTurnStream } from '../../api/agent';
import { queryKeys } from '../../api/query-keys';
import { isApiError } from '../../api/request';
import { settle } from '../../api/request';

/** The step being streamed now: its reasoning and words until the stored conversation catches up. */
export interface LiveTurn {
  turnId: string;
  reasoning: string;
  text: string;
  /** The tool being called right now. */
  calling: string | null;
  error: { code: number; msg: string; refunded: boolean } | null;
}

/**
 * One conversation of the agent: its stored messages (react-query) plus the live stream of the turn in progress.
 * Tool results and actions are persisted before their events go out, so each of those events just reloads it.
 */
export function useAgentChat(conversationId: number | null, onCreated: (id: number) => void) {
  const qc = useQueryClient();
  const [live, setLive] = useState<LiveTurn | null>(null);
  const [busyAction, setBusyAction] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const detail = useQuery({
    queryKey: queryKeys.agent.conversation(conversationId ?? 0),
    queryFn: () => agentApi.conversation(conversationId!),
    enabled: conversationId !== null,
  });
  const reload = useCallback(async () => {
    if (conversationId !== null) await qc.invalidateQueries({ queryKey: queryKeys.agent.conversation(conversationId) });
  }, [qc, conversationId]);

  const follow = useCallback(
    async (turnId: string, cid: number) => {
      abort.current?.abort();
      const ctrl = new AbortController();
      abort.current = ctrl;
      let state: LiveTurn = { turnId, reasoning: '', text: '', calling: null, error: null };
      setLive(state);
      const refresh = () => {
        qc.invalidateQueries({ queryKey: queryKeys.agent.conversation(cid) });
      };
      let last = 0;
      // A dropped connection resumes from the last event it had (Last-Event-ID); three drops in a row give up.
      for (let attempt = 0; attempt < 3 && !ctrl.signal.aborted; attempt++) {
        const ended = await readTurnStream(
          turnId,
          last,
          (e) => {
            last = e.id;
            attempt = 0;
            if (e.type === 'reasoning') state = { ...state, reasoning: state.reasoning + String(e.data.text ?? '') };
            else if (e.type === 'delta') state = { ...state, text: state.text + String(e.data.text ?? '') };
            else if (e.type === 'tool_call') {
              // The step's words are stored now: show them from the conversation, keep streaming the next step.
              state = { ...state, reasoning: '', text: '', calling: String(e.data.name ?? '') };
              refresh();
            } else if (e.type === 'tool_result' || e.type === 'action' || e.type === 'task') {
              state = { ...state, calling: null };
              refresh();
            } else if (e.type === 'error')
              state = { ...state, error: { code: Number(e.data.code ?? 999), msg: String(e.data.msg ?? '出错了'), refunded: e.data.refunded === true } };
            setLive(state);
          },
          ctrl.signal,
        ).catch(() => false);
        if (ended) break;
      }
      if (ctrl.signal.aborted) return;
      await refresh();
      await qc.invalidateQueries({ queryKey: queryKeys.agent.conversations });
      setLive(state.error ? { ...state, reasoning: '', text: '', calling: null } : null);
    },
    [qc],
  );

  useEffect(() => () => abort.current?.abort(), []);

  // Coming back to a conversation whose last turn is still running: follow it.
  const lastTurn = detail.data?.turns.at(-1);
  useEffect(() => {
    if (conversationId !== null && lastTurn && (lastTurn.status === 'queued' || lastTurn.status === 'running') && live?.turnId !== lastTurn.turnId) {
      settle(follow(lastTurn.turnId, conversationId));
    }
    // Only a new running turn starts a follow; `live` changing must not restart it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [conversationId, lastTurn?.turnId, lastTurn?.status, follow]);

  const send = useCallback(
    async (content: string) => {
      const r = await agentApi.send(content, conversationId ?? undefined);
      await qc.invalidateQueries({ queryKey: queryKeys.agent.conversations });
      if (r.conversationId !== conversationId) onCreated(r.conversationId);
      await qc.invalidateQueries({ queryKey: queryKeys.agent.conversation(r.conversationId) });
      settle(follow(r.turnId, r.conversationId));
    },
    [conversationId, follow, onCreated, qc],
  );

  const decide = useCallback(
    async (actionId: string, ok: boolean) => {
      setBusyAction(actionId);
      try {
        await (ok ? agentApi.confirm(actionId) : agentApi.reject(actionId));
      } catch (err) {
        // The request layer has shown the message; the action is back to pending with its reason.
        if (!isApiError(err)) throw err;
      } finally {
        setBusyAction(null);
        await reload();
      }
    },
    [reload],
  );

  const actions = new Map<string, AgentAction>((detail.data?.actions ?? []).map((a) => [a.actionId, a]));
  return { detail, live, send, decide, busyAction, actions };
}
