import type { AgentEventType } from '@inkstone/shared';
import { DEFAULT_TOKEN_NAME, LS, lsGet } from '../lib/storage-keys';
import { api } from './client';

/** 智能体: conversations, sending a goal, confirming or cancelling what the agent proposes. */
export const agentApi = {
  status: () => api.get('/agent/status', undefined, { silent: true }),
  conversations: () => api.get('/agent/conversations'),
  conversation: (id: number) => api.get('/agent/conversation', { id }),
  rename: (id: number, title: string) => api.post('/agent/conversation/rename', { id, title }),
  remove: (id: number) => api.post('/agent/conversation/delete', { id }),
  // The spec gives chat calls no limit of their own; sending only queues the turn, so the default is plenty.
  send: (content: string, conversationId?: number) => api.post('/agent/send', conversationId ? { content, conversationId } : { content }),
  confirm: (actionId: string) => api.post('/agent/confirm', { actionId }),
  reject: (actionId: string) => api.post('/agent/reject', { actionId }),
};

export interface TurnEvent {
  id: number;
  type: AgentEventType;
  data: Record<string, unknown>;
}

/**
 * Reads a turn's SSE stream with fetch (the session header goes along, no ticket needed) from `lastEventId`, calling
 * `onEvent` per event until `done`/`error` or abort. Resolves true when the stream reached its end event.
 */
export async function readTurnStream(turnId: string, lastEventId: number, onEvent: (e: TurnEvent) => void, signal: AbortSignal): Promise<boolean> {
  const headers: Record<string, string> = { accept: 'text/event-stream', 'last-event-id': String(lastEventId) };
  const token = lsGet(LS.tokenValue);
  if (token) headers[lsGet(LS.tokenName) || DEFAULT_TOKEN_NAME] = token;
  const res = await fetch(`/api/agent/turn/stream/${encodeURIComponent(turnId)}`, { headers, signal });
  if (!res.ok || !res.body || !(res.headers.get('content-type') ?? '').includes('text/event-stream')) return false;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return false;
    buf += value;
    let idx: number;
    while ((idx = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, idx);
      buf = buf.slice(idx + 2);
      let id = 0;
      let type = '';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) id = Number(line.slice(4));
        else if (line.startsWith('event: ')) type = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (!type) continue;
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(data) as Record<string, unknown>;
      } catch {
        // A malformed event is skipped; the stored conversation is reloaded at the end anyway.
      }
      onEvent({ id, type: type as AgentEventType, data: parsed });
      if (type === 'done' || type === 'error') {
        await reader.cancel().catch(() => undefined);
        return true;
      }
    }
  }
}
