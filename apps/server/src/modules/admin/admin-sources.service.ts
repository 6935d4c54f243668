import { ErrorCode, type AdminSource } from '@inkstone/shared';
import type { Db } from '../../db/client.js';
import { appError } from '../../http/errors.js';
import type { SearchProvider } from '../../integrations/search/types.js';
import type { ImageGenerator } from '../../integrations/imagegen/index.js';
import type { SourceSwitches } from '../sources/sources.service.js';
import type { TopicService } from '../topic/topic.service.js';
import type { AdminActor, AuditService } from './audit.service.js';

const SEARCH_VENDORS: Array<{ id: SearchProvider['name']; name: string }> = [
  { id: 'bocha', name: '博查搜索' },
  { id: 'tavily', name: 'Tavily' },
  { id: 'searxng', name: 'SearXNG' },
];

/**
 * 来源 in the console: which search vendor and trends sources the environment configures (names only, never keys or
 * settings), and the operator's switch over each configured one, read by writing and topics at use time.
 */
export class AdminSourcesService {
  constructor(
    private readonly db: Db,
    private readonly search: Pick<SearchProvider, 'name' | 'enabled'>,
    private readonly imagegen: Pick<ImageGenerator, 'id' | 'model' | 'enabled'>,
    private readonly topics: Pick<TopicService, 'feedList'>,
    private readonly switches: SourceSwitches,
    private readonly audit: AuditService,
  ) {}

  async list(): Promise<{ records: AdminSource[] }> {
    const searchOff = await this.switches.off('search');
    const search = SEARCH_VENDORS.map((v): AdminSource => {
      const configured = this.search.enabled && this.search.name === v.id;
      return {
        kind: 'search',
        id: v.id,
        name: v.name,
        configured,
        switchable: configured,
        enabled: configured && !searchOff.has(v.id),
        live: true,
        lastFetchedAt: null,
        ok: null,
        error: null,
      };
    });
    const trends = (await this.topics.feedList()).map((f): AdminSource => ({
      kind: 'trends',
      id: f.source,
      name: f.name,
      configured: true,
      switchable: f.origin === 'TRENDS_SOURCES',
      enabled: f.enabled,
      live: f.source !== 'snapshot',
      lastFetchedAt: f.lastFetchedAt,
      ok: f.ok,
      error: f.error,
    }));
    const imagegenOff = await this.switches.off('imagegen');
    const imagegen: AdminSource[] = this.imagegen.enabled
      ? [
          {
            kind: 'imagegen',
            id: this.imagegen.id,
            name: `AI配图${this.imagegen.model ? `（${this.imagegen.model}）` : ''}`,
            configured: true,
            switchable: true,
            enabled: !imagegenOff.has(this.imagegen.id),
            live: true,
            lastFetchedAt: null,
            ok: null,
            error: null,
          },
        ]
      : [];
    return { records: [...search, ...trends, ...imagegen] };
  }

  async setEnabled(actor: AdminActor, input: { kind: AdminSource['kind']; id: string; enabled: boolean }): Promise<AdminSource> {
    const found = (await this.list()).records.find((s) => s.kind === input.kind && s.id === input.id);
    if (!found?.configured) throw appError(ErrorCode.NOT_FOUND, `来源 ${input.id} 未在服务器环境中配置`);
    if (!found.switchable) throw appError(ErrorCode.CONFLICT, `订阅源 ${input.id} 由命令行添加，请用 topic:source:enable / disable 切换`);
    await this.db.transaction(async (tx) => {
      await this.switches.setIn(tx, input.kind, input.id, input.enabled);
      await this.audit.record(tx, actor, {
        action: 'source.switch',
        targetType: `${input.kind}_source`,
        targetId: input.id,
        before: { enabled: found.enabled },
        after: { enabled: input.enabled },
      });
    });
    this.switches.changed();
    return { ...found, enabled: input.enabled };
  }
}
