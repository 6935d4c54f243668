import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode, type StreamTicket } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { STREAM_TICKET_TTL_MS } from './stream-ticket.service.js';

interface SseEvent {
  id: number;
  event: string;
}

/** Opens a task stream by URL and reads it to its end, or until `stopAfter` events; a refusal is JSON instead. */
async function openStream(url: string, opts: { lastEventId?: number; stopAfter?: number } = {}): Promise<{ events: SseEvent[]; code?: number }> {
  const ctrl = new AbortController();
  const headers: Record<string, string> = opts.lastEventId !== undefined ? { 'last-event-id': String(opts.lastEventId) } : {};
  const res = await fetch(url, { headers, signal: ctrl.signal });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) return { events: [], code: ((await res.json()) as { code: number }).code };
  const events: SseEvent[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      let idx;
      while ((idx = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, idx);
        buf = buf.slice(idx + 2);
        const id = /^id: (\d+)$/m.exec(block)?.[1];
        const event = /^event: (\w+)$/m.exec(block)?.[1];
        if (id && event) events.push({ id: Number(id), event });
        if (opts.stopAfter && events.length >= opts.stopAfter) {
          ctrl.abort();
          return { events };
        }
      }
    }
  } catch (err) {
    if (!ctrl.signal.aborted) throw err;
  }
  return { events };
}

describeOnDatabases('SSE stream tickets on %s', (dbKind) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof loginByPhone>>;
  let taskId: string;
  let otherTaskId: string;
  const streamUrl = (id: string, query: Record<string, string>) => `${t.url}/api/mp/task/stream/${id}?${new URLSearchParams(query)}`;
  const ticketFor = async (token: string, id: string) => t.call<StreamTicket>('POST', '/mp/task/stream/ticket', { token, body: { taskId: id } });

  beforeAll(async () => {
    t = await startTestApp({ db: dbKind, env: { WRITING_STREAM_POLL_MS: '50', RATE_LIMIT_PER_MINUTE: '100000' } });
    user = await loginByPhone(t);
    await t.container.services.points.grant(user.user.id, 100, { reason: 'test', idempotencyKey: `ticket-test:${user.user.id}` });
    const create = () =>
      t.call<{ taskId: string }>('POST', '/mp/task/create', {
        token: user.tokenValue,
        body: { createType: 'article', writeType: 'quick', content: '春天去公园放风筝，需要注意风向和场地。' },
      });
    taskId = (await create()).data.taskId;
    otherTaskId = (await create()).data.taskId;
    await t.container.jobs.idle();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a ticket opens its task stream; the session token in the query string is refused', async () => {
    const issued = await ticketFor(user.tokenValue, taskId);
    expect(issued.code).toBe(0);
    expect(issued.data.expiresIn).toBe(60);
    expect(issued.data.ticket).not.toBe(user.tokenValue);
    const full = await openStream(streamUrl(taskId, { ticket: issued.data.ticket }));
    expect(full.events.at(-1)?.event).toBe('done');

    // The old ?token= path is gone: a session token never belongs in a URL.
    expect((await openStream(streamUrl(taskId, { token: user.tokenValue }))).code).toBe(ErrorCode.NOT_LOGGED_IN);
    // Non-browser clients keep the header.
    const byHeader = await fetch(`${t.url}/api/mp/task/stream/${taskId}`, { headers: { 'inkstone-token': user.tokenValue } });
    expect(await byHeader.text()).toContain('event: done');
  });

  it('a ticket is bound to its task and its user', async () => {
    const { data } = await ticketFor(user.tokenValue, taskId);
    expect((await openStream(streamUrl(otherTaskId, { ticket: data.ticket }))).code).toBe(ErrorCode.NOT_LOGGED_IN);
    expect((await openStream(streamUrl(taskId, { ticket: 'x'.repeat(43) }))).code).toBe(ErrorCode.NOT_LOGGED_IN);

    const other = await loginByPhone(t);
    expect((await ticketFor(other.tokenValue, taskId)).code).toBe(ErrorCode.NOT_FOUND);
    expect((await t.call('POST', '/mp/task/stream/ticket', { body: { taskId } })).code).toBe(ErrorCode.NOT_LOGGED_IN);
    const invalid = await t.call('POST', '/mp/task/stream/ticket', { token: user.tokenValue, body: {} });
    expect(invalid.code).toBe(ErrorCode.VALIDATION);
    expect(invalid.msg).toContain('taskId');
  });

  it('within its minute a ticket serves the browser reconnect with Last-Event-ID; after it, a fresh ticket resumes', async () => {
    const full = await openStream(streamUrl(taskId, { ticket: (await ticketFor(user.tokenValue, taskId)).data.ticket }));
    const { data } = await ticketFor(user.tokenValue, taskId);
    const url = streamUrl(taskId, { ticket: data.ticket });
    const part = await openStream(url, { stopAfter: 2 });
    // EventSource retries the very same URL and sends Last-Event-ID.
    const resumed = await openStream(url, { lastEventId: part.events.at(-1)!.id });
    expect([...part.events, ...resumed.events]).toEqual(full.events);

    t.clock.advance(STREAM_TICKET_TTL_MS + 1000);
    expect((await openStream(url, { lastEventId: part.events.at(-1)!.id })).code).toBe(ErrorCode.NOT_LOGGED_IN);
    const fresh = await ticketFor(user.tokenValue, taskId);
    const again = await openStream(streamUrl(taskId, { ticket: fresh.data.ticket, lastEventId: String(part.events.at(-1)!.id) }));
    expect([...part.events, ...again.events]).toEqual(full.events);
  });
});
