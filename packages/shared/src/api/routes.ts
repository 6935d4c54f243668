import type { z } from 'zod';
import type { recallChannelBody } from './activity.js';
import type {
  adminFlagsSchema,
  adminLexiconPageSchema,
  adminLexiconQuery,
  adminLexiconWordBody,
  adminLexiconWordSchema,
  adminModelIdBody,
  adminModelListSchema,
  adminModelSaveBody,
  adminModelSchema,
  adminModelTestSchema,
  adminSourceListSchema,
  adminSourceSchema,
  adminSourceSwitchBody,
} from './admin-models.js';
import type {
  adminAuditPageSchema,
  adminAuditQuery,
  adminBanBody,
  adminLedgerPageSchema,
  adminMeSchema,
  adminNicknameResetBody,
  adminOrderDetailSchema,
  adminOrderNoQuery,
  adminOrderPageSchema,
  adminOrderQuery,
  adminPointsBody,
  adminPointsReplySchema,
  adminReauthBody,
  adminReauthSendSchema,
  adminRefundBody,
  adminRefundSchema,
  adminRoleBody,
  adminRoleReplySchema,
  adminUserDetailSchema,
  adminUserIdQuery,
  adminUserPageQuery,
  adminUserPageSchema,
  adminUserSchema,
  adminUserSearchQuery,
  adminVipBody,
} from './admin.js';
import type {
  agentActionBody,
  agentActionSchema,
  agentConversationDetailSchema,
  agentConversationQuery,
  agentConversationSchema,
  agentIdBody,
  agentRenameBody,
  agentSendBody,
  agentSendReply,
  agentStatusSchema,
} from './agent.js';
import type {
  deleteAccountBody,
  doLogin0Body,
  doLoginWxBody,
  loginDeviceSchema,
  logoutQuery,
  sessionRevokeBody,
  wxBindBody,
  sceneQuery,
  isBindQuery,
  isBindSchema,
  handoverTokenSchema,
  isRegisterQuery,
  sendMsgQuery,
  sendMsgReply,
  sparkLoginBody,
  loginResultSchema,
  wxQrcodeSchema,
  wxScanStateSchema,
} from './auth.js';
import type { pageOf, pageQuery } from './common.js';
import type {
  adminBundleBody,
  adminBundleSchema,
  adminCatalogueSchema,
  adminPlanBody,
  adminPlanSchema,
  adminPointCostBody,
  adminPointCostChangeSchema,
  adminPointCostWithdrawBody,
} from './admin-catalogue.js';
import type { adminDashboardQuery, adminDashboardSchema, adminJobRetryBody, adminJobRetryReplySchema } from './admin-dashboard.js';
import type { adminNoticeCreateBody, adminNoticeIdBody, adminNoticePageSchema, adminNoticeQuery, adminNoticeSchema } from './admin-notices.js';
import type { adminCodeBatchBody, adminCodeBatchPageSchema, adminCodeBatchSchema, adminCodeGenerateBody, adminRedemptionPageSchema, adminRedemptionQuery } from './admin-codes.js';
import type {
  adminPlatformHealthListSchema,
  adminPlatformQuery,
  adminSiteProfileRollbackBody,
  adminSiteProfileSaveBody,
  adminSiteProfileSchema,
  adminStepFailurePageSchema,
  adminStepFailureQuery,
} from './admin-platform-health.js';
import type {
  dataAccountsSchema,
  dataHeatmapSchema,
  dataNotesPageSchema,
  dataNotesQuery,
  dataOverviewSchema,
  dataRangeQuery,
  dataRefreshQuery,
  dataRefreshSchema,
  dataSeriesQuery,
  dataSeriesSchema,
  dataTopQuery,
  dataTopSchema,
} from './data.js';
import type { feedbackBody, feedbackItemSchema, feedbackListQuery, feedbackPageSchema } from './feedback.js';
import type {
  anyTaskCreateBody,
  cardAddBody,
  cardImageAiBody,
  cardImageMaterialBody,
  materialSearchQuery,
  materialSearchReply,
  materialStatusReply,
  cardImageSetBody,
  cardImageUploadFields,
  cardRemoveBody,
  cardReorderBody,
  cardStyleBody,
  cardUpdateBody,
  coverBody,
  coverReply,
  graphicCardsReply,
  graphicDraftSaveBody,
  graphicDraftSaveReply,
  graphicTaskInfoSchema,
  graphicTaskQuery,
  graphicTemplatesReply,
  graphicTopicQuery,
  graphicTopicReply,
  imagegenStatusReply,
} from './graphic.js';
import type {
  knowledgeDocListQuery,
  knowledgeDocMoveBody,
  knowledgeDocPageSchema,
  knowledgeDocRenameBody,
  knowledgeDocSchema,
  knowledgeDocTextSchema,
  knowledgeFolderCreateBody,
  knowledgeFolderRenameBody,
  knowledgeFolderSchema,
  knowledgeIdBody,
  knowledgeIdQuery,
  knowledgeImportBody,
  knowledgeQuotaSchema,
  knowledgeSearchQuery,
  knowledgeSearchSchema,
  knowledgeStatusSchema,
  knowledgeUploadQuery,
} from './knowledge.js';
import type { noticeBubbleSchema, noticeIdQuery, noticeItemSchema, noticeListQuery, noticePageSchema } from './notice.js';
import type {
  accountBindBody,
  accountCountReply,
  accountIdQuery,
  accountListQuery,
  accountListReply,
  accountTopBody,
  accountUnbindBody,
  connectionQuery,
  connectionReleaseBody,
  connectionReleaseReply,
  intentCommentQuery,
  intentCommentReply,
  loginConnectBody,
  loginConnectionSchema,
  loginConnectReply,
  loginCookieReply,
  loginScanReply,
  nextSlotQuery,
  nextSlotReply,
  passthroughBody,
  passthroughReply,
  platformAccountSchema,
  publishArticleBody,
  publishArticleReply,
  publishRecordPage,
  publishRecordQuery,
  publishResultQuery,
  publishResultReply,
  unreadCountsSchema,
  xhsTagsQuery,
  xhsTagsReply,
} from './publish.js';
import type {
  mapIdQuery,
  mapItemSchema,
  mapListSchema,
  mapSaveBody,
  topicAnglesBody,
  topicAnglesSchema,
  topicCalendarQuery,
  topicCalendarSchema,
  topicCollectPageSchema,
  topicHotPageSchema,
  topicHotQuery,
  topicIdBody,
  topicIdQuery,
  topicItemSchema,
  trackInfoSchema,
  trackSaveBody,
  trackSearchQuery,
  trackSearchResultSchema,
} from './topic.js';
import type {
  appReleaseQuery,
  appReleaseSchema,
  changeNicknameQuery,
  eventReportQuery,
  fillInfoBody,
  globalSettingSchema,
  settingItemSchema,
  settingUpdateBody,
  userProfileSchema,
} from './user.js';
import type {
  activityConfigSchema,
  bundleQrBody,
  codeExchangeResultSchema,
  contestTimestampSchema,
  couponExchangeBody,
  dailyClaimSchema,
  homepageActivitySchema,
  invitePopupSchema,
  ledgerEntrySchema,
  orderItemSchema,
  orderNoQuery,
  orderStatusSchema,
  payQrSchema,
  pointCostSchema,
  pointsBundleSchema,
  rightsCodeQuery,
  userScoreSchema,
  vipPlanSchema,
  vipQrBody,
  vipUserInfoSchema,
} from './vip.js';
import type {
  abilityCreateBody,
  draftDetailSchema,
  draftItemSchema,
  draftSaveBody,
  festivalItemSchema,
  festivalQuery,
  homeInputQuery,
  idBody,
  idQuery,
  imageItemSchema,
  imageSearchQuery,
  modelItemSchema,
  personaSaveBody,
  personaSchema,
  quoteFileSchema,
  saveHomeInputBody,
  savedHomeInputSchema,
  searchStatusSchema,
  streamTicketBody,
  streamTicketSchema,
  styleCardSchema,
  suggestWordSchema,
  taskIdQuery,
  taskIdSchema,
  taskInfoSchema,
  titleGenerateBody,
  titleGenerateSchema,
  uploadResultSchema,
  homeAbilityItemSchema,
} from './writing.js';

/**
 * The API as the web calls it: path (relative to `/api`, or under `/publish-api`) -> method, query, body and reply,
 * all taken from the zod schemas the server validates with, so a client typed by this map cannot call a path that
 * does not exist, send a body the route does not take, or read a field the reply does not have.
 *
 * Type-only: nothing here reaches a bundle. Routes that answer a file rather than the envelope (draft export,
 * publish screenshots, knowledge files) and the SSE stream are not in the map; their callers use the raw request.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT';

/**
 * What the client sends for a schema: its input shape, except that a field the schema coerces (input `unknown`,
 * e.g. `z.coerce.number()` in queries) takes the parsed type, so `{ id: 'x' }` where a number is meant fails.
 */
type Sent<I, O> = { [K in keyof I]: unknown extends I[K] ? (K extends keyof O ? O[K] : I[K]) : I[K] };
type SentOf<S> = S extends z.ZodType ? Sent<z.input<S>, z.output<S>> : undefined;
/**
 * A query travels as text, so a field may also be given as the value its schema parses to (`top: true` for a
 * schema reading 'true' | 'false'); the URL serialisation writes it as the text the schema reads.
 */
type QuerySent<I, O> = { [K in keyof I]: unknown extends I[K] ? (K extends keyof O ? O[K] : I[K]) : I[K] | (K extends keyof O ? O[K] : never) };
type QueryOf<S> = S extends z.ZodType ? QuerySent<z.input<S>, z.output<S>> : undefined;

/** One route: `Q`/`B` are the query and body schemas (`null` for none), `R` the schema of the envelope's data. */
export interface RouteDef<M extends HttpMethod = HttpMethod, Q = unknown, B = unknown, R = unknown> {
  method: M;
  query: Q;
  body: B;
  reply: R;
}
type Get<R extends z.ZodType, Q extends z.ZodType | null = null> = RouteDef<'GET', QueryOf<Q>, undefined, z.output<R>>;
type Post<R extends z.ZodType, B extends z.ZodType | null = null, Q extends z.ZodType | null = null> = RouteDef<'POST', QueryOf<Q>, SentOf<B>, z.output<R>>;
type Put<R extends z.ZodType, B extends z.ZodType | null = null> = RouteDef<'PUT', undefined, SentOf<B>, z.output<R>>;
/** Multipart uploads: the body is a FormData built by the caller (a `file` field). */
type Upload<R extends z.ZodType, Q extends z.ZodType | null = null> = RouteDef<'POST', QueryOf<Q>, FormDataBody, z.output<R>>;
/** Stands for the browser's FormData without making this package depend on the DOM types. */
export interface FormDataBody {
  append(name: string, value: string | object): void;
}

type Null = z.ZodNull;
type ArrayOf<S extends z.ZodType> = z.ZodArray<S>;
type PageOf<S extends z.ZodType> = ReturnType<typeof pageOf<S>>;
type TopicCollectReply = z.ZodObject<{ topicId: z.ZodNumber; collected: z.ZodBoolean }>;

export interface ApiRoutes {
  // auth
  '/auth/send/msg': Get<typeof sendMsgReply, typeof sendMsgQuery>;
  '/auth/doLogin0': Post<typeof loginResultSchema, typeof doLogin0Body>;
  '/wx/qrcode/url': Get<typeof wxQrcodeSchema>;
  '/wx/qrcode/openid': Get<typeof wxScanStateSchema, typeof sceneQuery>;
  '/auth/v2/doLoginWx': Post<typeof loginResultSchema, typeof doLoginWxBody>;
  '/auth/spark/login': Post<typeof loginResultSchema, typeof sparkLoginBody>;
  '/auth/isLogin': Get<z.ZodBoolean>;
  '/auth/nowLoginUser': Get<typeof userProfileSchema>;
  '/auth/logout': Get<Null, typeof logoutQuery>;
  '/auth/sessions': Get<ArrayOf<typeof loginDeviceSchema>>;
  '/auth/sessions/revoke': Post<Null, typeof sessionRevokeBody>;
  '/auth/wx/bind': Post<typeof userProfileSchema, typeof wxBindBody>;
  '/auth/wx/unbind': Post<typeof userProfileSchema>;
  '/auth/delete/v2': Post<Null, typeof deleteAccountBody>;
  '/auth/delete/code': Post<typeof sendMsgReply>;
  '/auth/isbind': Get<typeof isBindSchema, typeof isBindQuery>;
  '/auth/isRegister': Get<z.ZodBoolean, typeof isRegisterQuery>;
  '/auth/spark/token': Post<typeof handoverTokenSchema>;
  // user
  '/user/change-nickname': Post<typeof userProfileSchema, null, typeof changeNicknameQuery>;
  '/user/fill/info': Post<typeof userProfileSchema, typeof fillInfoBody>;
  '/user/setting/list': Get<ArrayOf<typeof settingItemSchema>>;
  '/user/setting/update': Put<ArrayOf<typeof settingItemSchema>, typeof settingUpdateBody>;
  '/user/global-setting': Get<typeof globalSettingSchema>;
  '/user/event/report': Get<Null, typeof eventReportQuery>;
  '/user/avatar': Upload<typeof userProfileSchema>;
  '/app/release': Get<typeof appReleaseSchema, typeof appReleaseQuery>;
  '/writing/ability/types': Get<ArrayOf<typeof homeAbilityItemSchema>>;
  '/homepage/recall/channel': Post<Null, typeof recallChannelBody>;
  // vip and points
  '/vip/user/score': Get<typeof userScoreSchema>;
  '/vip/user/info': Get<typeof vipUserInfoSchema>;
  '/vip/subscribe/category': Get<ArrayOf<typeof vipPlanSchema>>;
  '/vip/score/bundle/list': Get<ArrayOf<typeof pointsBundleSchema>>;
  '/vip/score/bundle/category': Get<ArrayOf<typeof pointsBundleSchema>>;
  '/vip/score/point/consume': Get<ArrayOf<typeof pointCostSchema>>;
  '/vip/score/consume/list': Get<PageOf<typeof ledgerEntrySchema>, typeof pageQuery>;
  '/vip/order/list': Get<PageOf<typeof orderItemSchema>, typeof pageQuery>;
  '/vip/pay/qrcode': Post<typeof payQrSchema, typeof vipQrBody>;
  '/vip/pay/score-bundle/qrcode': Post<typeof payQrSchema, typeof bundleQrBody>;
  '/vip/pay/order/status': Get<typeof orderStatusSchema, typeof orderNoQuery>;
  '/vip/pay/score-bundle/order/status': Get<typeof orderStatusSchema, typeof orderNoQuery>;
  '/vip/coupon-code/exchange': Post<typeof codeExchangeResultSchema, typeof couponExchangeBody>;
  '/rightsCode/exchange': Get<typeof codeExchangeResultSchema, typeof rightsCodeQuery>;
  '/vip/activity/config': Get<typeof activityConfigSchema>;
  '/vip/activity/invite/popup': Get<typeof invitePopupSchema>;
  '/vip/activity/daily/claim': Post<typeof dailyClaimSchema>;
  '/activity/homepage/config': Get<typeof homepageActivitySchema>;
  '/contest/activity/timestamp': Get<typeof contestTimestampSchema>;
  // operators' console: catalogue
  '/admin/catalogue': Get<typeof adminCatalogueSchema>;
  '/admin/catalogue/plan': Post<typeof adminPlanSchema, typeof adminPlanBody>;
  '/admin/catalogue/bundle': Post<typeof adminBundleSchema, typeof adminBundleBody>;
  '/admin/catalogue/point-cost': Post<typeof adminPointCostChangeSchema, typeof adminPointCostBody>;
  '/admin/catalogue/point-cost/withdraw': Post<typeof adminPointCostChangeSchema, typeof adminPointCostWithdrawBody>;
  // operators' console: redeem codes (/admin/codes/export.csv answers a file, outside this map)
  '/admin/codes/batches': Get<typeof adminCodeBatchPageSchema, typeof pageQuery>;
  '/admin/codes/generate': Post<typeof adminCodeBatchSchema, typeof adminCodeGenerateBody>;
  '/admin/codes/disable': Post<typeof adminCodeBatchSchema, typeof adminCodeBatchBody>;
  '/admin/codes/redemptions': Get<typeof adminRedemptionPageSchema, typeof adminRedemptionQuery>;
  // operators' console: dashboard and notices
  '/admin/dashboard': Get<typeof adminDashboardSchema, typeof adminDashboardQuery>;
  '/admin/jobs/retry': Post<typeof adminJobRetryReplySchema, typeof adminJobRetryBody>;
  '/admin/notices': Get<typeof adminNoticePageSchema, typeof adminNoticeQuery>;
  '/admin/notices/create': Post<typeof adminNoticeSchema, typeof adminNoticeCreateBody>;
  '/admin/notices/withdraw': Post<typeof adminNoticeSchema, typeof adminNoticeIdBody>;
  // operators' console: models and sources
  '/admin/models': Get<typeof adminModelListSchema>;
  '/admin/models/create': Post<typeof adminModelSchema, typeof adminModelSaveBody>;
  '/admin/models/update': Post<typeof adminModelSchema, typeof adminModelSaveBody>;
  '/admin/models/test': Post<typeof adminModelTestSchema, typeof adminModelIdBody>;
  '/admin/lexicon': Get<typeof adminLexiconPageSchema, typeof adminLexiconQuery>;
  '/admin/lexicon/add': Post<typeof adminLexiconWordSchema, typeof adminLexiconWordBody>;
  '/admin/lexicon/remove': Post<typeof adminLexiconWordSchema, typeof adminLexiconWordBody>;
  '/admin/sources': Get<typeof adminSourceListSchema>;
  '/admin/sources/switch': Post<typeof adminSourceSchema, typeof adminSourceSwitchBody>;
  '/admin/flags': Get<typeof adminFlagsSchema>;
  // operators' console: 平台健康 (/admin/platform-health/screenshot answers a PNG, outside this map)
  '/admin/platform-health': Get<typeof adminPlatformHealthListSchema>;
  '/admin/platform-health/failures': Get<typeof adminStepFailurePageSchema, typeof adminStepFailureQuery>;
  '/admin/platform-health/profile': Get<typeof adminSiteProfileSchema, typeof adminPlatformQuery>;
  '/admin/platform-health/profile/save': Post<typeof adminSiteProfileSchema, typeof adminSiteProfileSaveBody>;
  '/admin/platform-health/profile/rollback': Post<typeof adminSiteProfileSchema, typeof adminSiteProfileRollbackBody>;
  // notices and feedback
  '/notice/bubble': Get<typeof noticeBubbleSchema>;
  '/notice/v2/list': Get<typeof noticePageSchema, typeof noticeListQuery>;
  '/notice/detail': Get<typeof noticeItemSchema, typeof noticeIdQuery>;
  '/notice/read': Post<Null, null, typeof noticeIdQuery>;
  '/notice/all/read': Post<Null>;
  '/feedback/submit': Post<typeof feedbackItemSchema, typeof feedbackBody>;
  '/feedback/list': Get<typeof feedbackPageSchema, typeof feedbackListQuery>;
  // writing
  '/writing/model/list': Get<ArrayOf<typeof modelItemSchema>>;
  '/writing/search/status': Get<typeof searchStatusSchema>;
  '/writing/style/homepage/input': Get<typeof savedHomeInputSchema, typeof homeInputQuery>;
  '/writing/style/save/homepage/input': Post<typeof savedHomeInputSchema, typeof saveHomeInputBody>;
  '/writing/style/home/v2': Get<ArrayOf<typeof styleCardSchema>>;
  '/writing/style/homepage/words/v2': Get<ArrayOf<typeof suggestWordSchema>>;
  '/mpTopic/v2/festival': Get<ArrayOf<typeof festivalItemSchema>, typeof festivalQuery>;
  '/mp/task/create': Post<typeof taskIdSchema, typeof anyTaskCreateBody>;
  '/mp/task/info': Get<typeof taskInfoSchema, typeof taskIdQuery>;
  '/mp/task/stream/ticket': Post<typeof streamTicketSchema, typeof streamTicketBody>;
  '/writing/ability/create': Post<typeof taskIdSchema, typeof abilityCreateBody>;
  '/writing/title/generate': Post<typeof titleGenerateSchema, typeof titleGenerateBody>;
  '/writing/draft/list': Get<PageOf<typeof draftItemSchema>, typeof pageQuery>;
  '/writing/draft/detail': Get<typeof draftDetailSchema, typeof idQuery>;
  '/writing/draft/save': Post<typeof draftDetailSchema, typeof draftSaveBody>;
  '/writing/draft/delete': Post<Null, typeof idBody>;
  '/persona/list': Get<ArrayOf<typeof personaSchema>>;
  '/persona/detail': Get<typeof personaSchema, typeof idQuery>;
  '/persona/save': Post<typeof personaSchema, typeof personaSaveBody>;
  '/persona/delete': Post<Null, typeof idBody>;
  '/writing/file/upload': Upload<typeof quoteFileSchema>;
  '/writing/file/list': Get<ArrayOf<typeof quoteFileSchema>>;
  '/writing/file/delete': Post<Null, typeof idBody>;
  '/wx/upload': Upload<typeof uploadResultSchema>;
  '/material/v3/image/search': Get<ArrayOf<typeof imageItemSchema>, typeof imageSearchQuery>;
  // publishing (the /publish-api prefix is served beside /api)
  '/publish-api/chrome/login/connect': Post<typeof loginConnectReply, typeof loginConnectBody>;
  '/publish-api/chrome/login/connection': Get<typeof loginConnectionSchema, typeof connectionQuery>;
  '/publish-api/chrome/login/code/scan': Get<typeof loginScanReply, typeof connectionQuery>;
  '/publish-api/chrome/login/cookie': Get<typeof loginCookieReply, typeof connectionQuery>;
  '/publish-api/chrome/connection/release': Post<typeof connectionReleaseReply, typeof connectionReleaseBody>;
  '/publish-api/publish/passthrough': Post<typeof passthroughReply, typeof passthroughBody>;
  '/publish-api/publish/article': Post<typeof publishArticleReply, typeof publishArticleBody>;
  '/publish-api/publish/result': Get<typeof publishResultReply, typeof publishResultQuery>;
  '/publish-api/publish/next-slot': Get<typeof nextSlotReply, typeof nextSlotQuery>;
  '/publish/v4/account/bind': Post<typeof platformAccountSchema, typeof accountBindBody>;
  '/publish/account/unbind': Post<Null, typeof accountUnbindBody>;
  '/publish/account/top': Post<typeof platformAccountSchema, typeof accountTopBody>;
  '/publish/account/list/v3': Get<typeof accountListReply, typeof accountListQuery>;
  '/publish/account/count/v3': Get<typeof accountCountReply>;
  '/publish/account/unread': Get<typeof unreadCountsSchema, typeof accountIdQuery>;
  '/publish/record/list': Get<typeof publishRecordPage, typeof publishRecordQuery>;
  '/agent/xhs/tags': Get<typeof xhsTagsReply, typeof xhsTagsQuery>;
  '/thirdparty/intension/comment': Get<typeof intentCommentReply, typeof intentCommentQuery>;
  // graphic posts
  '/graphic/cover': Post<typeof coverReply, typeof coverBody>;
  '/graphic/task/info': Get<typeof graphicTaskInfoSchema, typeof graphicTaskQuery>;
  '/graphic/templates': Get<typeof graphicTemplatesReply>;
  '/graphic/imagegen/status': Get<typeof imagegenStatusReply>;
  '/graphic/recommend/topic': Get<typeof graphicTopicReply, typeof graphicTopicQuery>;
  '/graphic/card/update': Post<typeof graphicCardsReply, typeof cardUpdateBody>;
  '/graphic/card/style': Post<typeof graphicCardsReply, typeof cardStyleBody>;
  '/graphic/card/reorder': Post<typeof graphicCardsReply, typeof cardReorderBody>;
  '/graphic/card/add': Post<typeof graphicCardsReply, typeof cardAddBody>;
  '/graphic/card/remove': Post<typeof graphicCardsReply, typeof cardRemoveBody>;
  '/graphic/card/image/upload': Upload<typeof graphicCardsReply, typeof cardImageUploadFields>;
  '/graphic/card/image/set': Post<typeof graphicCardsReply, typeof cardImageSetBody>;
  '/graphic/card/image/ai': Post<typeof graphicCardsReply, typeof cardImageAiBody>;
  '/graphic/material/status': Get<typeof materialStatusReply>;
  '/graphic/material/search': Get<typeof materialSearchReply, typeof materialSearchQuery>;
  '/graphic/card/image/material': Post<typeof graphicCardsReply, typeof cardImageMaterialBody>;
  '/graphic/draft/save': Post<typeof graphicDraftSaveReply, typeof graphicDraftSaveBody>;
  // topics
  '/topic/v3/track/info': Get<typeof trackInfoSchema>;
  '/topic/v3/track/save': Post<typeof trackInfoSchema, typeof trackSaveBody>;
  '/topic/v3/track/search': Get<typeof trackSearchResultSchema, typeof trackSearchQuery>;
  '/topic/v3/hot': Get<typeof topicHotPageSchema, typeof topicHotQuery>;
  '/topic/v3/detail': Get<typeof topicItemSchema, typeof topicIdQuery>;
  '/topic/v3/collect': Post<TopicCollectReply, typeof topicIdBody>;
  '/topic/v3/collect/cancel': Post<TopicCollectReply, typeof topicIdBody>;
  '/topic/v3/collect/list': Get<typeof topicCollectPageSchema, typeof pageQuery>;
  '/topic/v3/suggest': Post<typeof topicAnglesSchema, typeof topicAnglesBody>;
  '/topic/v3/calendar': Get<typeof topicCalendarSchema, typeof topicCalendarQuery>;
  '/topic/v3/map/save': Post<typeof mapItemSchema, typeof mapSaveBody>;
  '/topic/v3/map/list': Get<typeof mapListSchema>;
  '/topic/v3/map/detail': Get<typeof mapItemSchema, typeof mapIdQuery>;
  '/topic/v3/map/delete': Post<Null, typeof mapIdQuery>;
  // knowledge
  '/knowledge/folder/list': Get<ArrayOf<typeof knowledgeFolderSchema>>;
  '/knowledge/folder/create': Post<typeof knowledgeFolderSchema, typeof knowledgeFolderCreateBody>;
  '/knowledge/folder/rename': Post<Null, typeof knowledgeFolderRenameBody>;
  '/knowledge/folder/delete': Post<Null, typeof knowledgeIdBody>;
  '/knowledge/quota': Get<typeof knowledgeQuotaSchema>;
  '/knowledge/doc/upload': Upload<typeof knowledgeDocSchema, typeof knowledgeUploadQuery>;
  '/knowledge/doc/import': Post<typeof knowledgeDocSchema, typeof knowledgeImportBody>;
  '/knowledge/doc/list': Get<typeof knowledgeDocPageSchema, typeof knowledgeDocListQuery>;
  '/knowledge/doc/info': Get<typeof knowledgeDocSchema, typeof knowledgeIdQuery>;
  '/knowledge/doc/rename': Post<typeof knowledgeDocSchema, typeof knowledgeDocRenameBody>;
  '/knowledge/doc/move': Post<typeof knowledgeDocSchema, typeof knowledgeDocMoveBody>;
  '/knowledge/doc/delete': Post<Null, typeof knowledgeIdBody>;
  '/knowledge/doc/text': Get<typeof knowledgeDocTextSchema, typeof knowledgeIdQuery>;
  '/knowledge/search': Get<typeof knowledgeSearchSchema, typeof knowledgeSearchQuery>;
  '/knowledge/status': Get<typeof knowledgeStatusSchema>;
  // data analysis (export.csv and report.pdf answer files, outside this map)
  '/data/overview': Get<typeof dataOverviewSchema, typeof dataRangeQuery>;
  '/data/series': Get<typeof dataSeriesSchema, typeof dataSeriesQuery>;
  '/data/accounts': Get<typeof dataAccountsSchema, typeof dataRangeQuery>;
  '/data/notes': Get<typeof dataNotesPageSchema, typeof dataNotesQuery>;
  '/data/heatmap': Get<typeof dataHeatmapSchema, typeof dataRangeQuery>;
  '/data/top': Get<typeof dataTopSchema, typeof dataTopQuery>;
  '/data/refresh': Post<typeof dataRefreshSchema, null, typeof dataRefreshQuery>;
  // operators' console (/admin/audit/export.csv answers a file, outside this map)
  '/admin/me': Get<typeof adminMeSchema>;
  '/admin/reauth/send': Post<typeof adminReauthSendSchema>;
  '/admin/reauth': Post<typeof adminMeSchema, typeof adminReauthBody>;
  '/admin/users/role': Post<typeof adminRoleReplySchema, typeof adminRoleBody>;
  '/admin/audit': Get<typeof adminAuditPageSchema, typeof adminAuditQuery>;
  '/admin/users': Get<typeof adminUserPageSchema, typeof adminUserSearchQuery>;
  '/admin/users/detail': Get<typeof adminUserDetailSchema, typeof adminUserIdQuery>;
  '/admin/users/ledger': Get<typeof adminLedgerPageSchema, typeof adminUserPageQuery>;
  '/admin/users/orders': Get<typeof adminOrderPageSchema, typeof adminUserPageQuery>;
  '/admin/users/points': Post<typeof adminPointsReplySchema, typeof adminPointsBody>;
  '/admin/users/vip': Post<typeof adminUserSchema, typeof adminVipBody>;
  '/admin/users/ban': Post<typeof adminUserSchema, typeof adminBanBody>;
  '/admin/users/nickname/reset': Post<typeof adminUserSchema, typeof adminNicknameResetBody>;
  '/admin/orders': Get<typeof adminOrderPageSchema, typeof adminOrderQuery>;
  '/admin/orders/detail': Get<typeof adminOrderDetailSchema, typeof adminOrderNoQuery>;
  '/admin/orders/refund': Post<typeof adminRefundSchema, typeof adminRefundBody>;
  // 智能体 (the turn stream is SSE, outside this map)
  '/agent/status': Get<typeof agentStatusSchema>;
  '/agent/conversations': Get<ArrayOf<typeof agentConversationSchema>>;
  '/agent/conversation': Get<typeof agentConversationDetailSchema, typeof agentConversationQuery>;
  '/agent/conversation/rename': Post<Null, typeof agentRenameBody>;
  '/agent/conversation/delete': Post<Null, typeof agentIdBody>;
  '/agent/send': Post<typeof agentSendReply, typeof agentSendBody>;
  '/agent/confirm': Post<typeof agentActionSchema, typeof agentActionBody>;
  '/agent/reject': Post<typeof agentActionSchema, typeof agentActionBody>;
}

export type ApiPath = keyof ApiRoutes;
/** The paths a method may be called with. */
export type ApiPathOf<M extends HttpMethod> = { [P in ApiPath]: ApiRoutes[P]['method'] extends M ? P : never }[ApiPath];
export type ApiQuery<P extends ApiPath> = ApiRoutes[P]['query'];
export type ApiBody<P extends ApiPath> = ApiRoutes[P]['body'];
export type ApiReply<P extends ApiPath> = ApiRoutes[P]['reply'];
