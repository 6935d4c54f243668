import type { NoticeItem, NoticeType } from '@inkstone/shared';
import type { AccountListQuery } from './publish';
import type { FolderFilter } from './knowledge';
import type { KnowledgeExt } from '@inkstone/shared';
import type { DataNotesParams, DataRangeParams, DataSeriesParams, DataTopParams } from './data';

/**
 * Every react-query key of the app, from one place. Keys are arrays whose first element names an area, so an
 * invalidation of a prefix (`queryKeys.vip.all`, `queryKeys.persona.all`) refreshes everything below it; a page
 * never spells a key by hand, so two pages reading the same list share its cache and its invalidation.
 */
export const queryKeys = {
  /** Balance, plans, prices, history: one invalidation after a payment, a redemption or a claim refreshes all. */
  vip: {
    all: ['vip'] as const,
    plans: ['vip', 'plans'] as const,
    bundles: ['vip', 'bundles'] as const,
    /** Points prices per paid feature (the server's list). */
    costs: ['vip', 'costs'] as const,
    history: (pageNum: number) => ['vip', 'history', pageNum] as const,
    orders: (pageNum: number) => ['vip', 'orders', pageNum] as const,
    activityConfig: ['vip', 'activity-config'] as const,
    invitePopup: ['vip', 'invite-popup'] as const,
    homepage: ['vip', 'homepage'] as const,
  },
  activity: {
    contestTimestamp: ['contest-timestamp'] as const,
  },
  /** 智能体: status, the conversation list and one conversation. */
  agent: {
    all: ['agent'] as const,
    status: ['agent', 'status'] as const,
    conversations: ['agent', 'conversations'] as const,
    conversation: (id: number) => ['agent', 'conversation', id] as const,
    /** The agent home's few drafts: under the drafts key, so saving or deleting a draft refreshes it too. */
    homeDrafts: ['writing', 'drafts', 'agent-home'] as const,
  },
  user: {
    globalSetting: ['global-setting'] as const,
  },
  writing: {
    all: ['writing'] as const,
    /** Writing styles (the server's list). */
    styles: ['writing', 'styles'] as const,
    festivals: (year: number) => ['writing', 'festivals', year] as const,
    words: ['writing', 'words'] as const,
    models: ['writing', 'models'] as const,
    /** The home input's ability types (the server's list). */
    abilityTypes: ['writing', 'abilityTypes'] as const,
    searchStatus: ['writing', 'search-status'] as const,
    files: ['writing', 'files'] as const,
    drafts: ['writing', 'drafts'] as const,
    taskInfo: (taskId: string | null) => ['writing', 'task-info', taskId] as const,
  },
  graphic: {
    /** One graphic task's note and cards (the editor writes card replies into it). */
    info: (taskId: string | null) => ['graphic', 'info', taskId] as const,
    templates: ['graphic', 'templates'] as const,
    imagegen: ['graphic', 'imagegen'] as const,
    materialStatus: ['graphic', 'material', 'status'] as const,
    materialSearch: (q: string, page: number) => ['graphic', 'material', 'search', q, page] as const,
    topics: (text: string) => ['graphic', 'topics', text] as const,
  },
  persona: {
    all: ['persona'] as const,
    list: ['persona', 'list'] as const,
    detail: (id: number | null) => ['persona', 'detail', id] as const,
  },
  publish: {
    /** The platforms this server publishes to and how each logs in (the server's list). */
    platforms: ['publish-config'] as const,
    accounts: {
      all: ['publish-accounts'] as const,
      /** Every bound account, unfiltered: the publish dialog, the account matrix and the operation board share it. */
      unfiltered: ['publish-accounts', 'all'] as const,
      filtered: (q: AccountListQuery) => ['publish-accounts', q] as const,
    },
    accountCount: ['publish-account-count'] as const,
    accountUnread: (accountId: number | null) => ['account-unread', accountId] as const,
    records: (accountId: number | null, pageNum: number) => ['publish-records', accountId, pageNum] as const,
    history: ['publish-history'] as const,
    result: (publishId: string) => ['publish-result', publishId] as const,
    nextSlot: (accountIds: number[]) => ['publish-next-slot', accountIds.join(',')] as const,
    xhsTags: (text: string) => ['xhs-tags', text] as const,
    intentComments: (accountId: number | null, pageNum: number) => ['intent-comments', accountId, pageNum] as const,
  },
  notice: {
    list: {
      all: ['notice-list'] as const,
      page: (pageNum: number, type: NoticeType | '') => ['notice-list', pageNum, type] as const,
    },
    detail: (id: NoticeItem['id'] | null) => ['notice-detail', id] as const,
  },
  feedback: {
    all: ['feedback-list'] as const,
    page: (pageNum: number) => ['feedback-list', pageNum] as const,
  },
  /** Data analysis: one invalidation after a refresh reloads every panel. */
  data: {
    all: ['data'] as const,
    overview: (q: DataRangeParams) => ['data', 'overview', q] as const,
    series: (q: DataSeriesParams) => ['data', 'series', q] as const,
    accounts: (q: DataRangeParams) => ['data', 'accounts', q] as const,
    notes: (q: DataNotesParams) => ['data', 'notes', q] as const,
    heatmap: (q: DataRangeParams) => ['data', 'heatmap', q] as const,
    top: (q: DataTopParams) => ['data', 'top', q] as const,
  },
  /** 知识库: every list and search sits under ['knowledge'], so one invalidation after an upload or a move refreshes all. */
  knowledge: {
    all: ['knowledge'] as const,
    folders: ['knowledge', 'folders'] as const,
    quota: ['knowledge', 'quota'] as const,
    status: ['knowledge', 'status'] as const,
    docs: (folder: FolderFilter, ext: KnowledgeExt | undefined, page: number) => ['knowledge', 'docs', folder ?? 'all', ext ?? 'all', page] as const,
    /** The quote picker's whole-library list. */
    quoteDocs: ['knowledge', 'docs', 'quote'] as const,
    searchAll: ['knowledge', 'search'] as const,
    search: (q: string, folder: FolderFilter, ext: KnowledgeExt | undefined) => ['knowledge', 'search', q, folder ?? 'all', ext ?? 'all'] as const,
    doc: (id: number) => ['knowledge', 'doc', id] as const,
    text: (id: number) => ['knowledge', 'text', id] as const,
  },
  /** 选题 and the divergent maps. */
  topic: {
    hotAll: ['topic-hot'] as const,
    hot: (track: string, keyword: string, source: string, pageNum: number) => ['topic-hot', track, keyword, source, pageNum] as const,
    detail: (id: number | null) => ['topic-detail', id] as const,
    collections: ['topic-collections'] as const,
    calendar: (month: string) => ['topic', 'calendar', month] as const,
    maps: ['topic-maps'] as const,
  },
  healthz: {
    demo: ['healthz', 'demo'] as const,
  },
};
