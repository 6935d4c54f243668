import type { FastifyInstance } from 'fastify';
import type { GrowthbookPayload } from '@inkstone/shared';
import type { VipModule } from '../vip/vip.module.js';
import type { AdminModule } from './admin.module.js';
import { AdminCatalogueService } from './admin-catalogue.service.js';
import { catalogueRoutes } from './admin-catalogue.routes.js';
import { AdminCodesService } from './admin-codes.service.js';
import { codesRoutes } from './admin-codes.routes.js';
import type { NoticeModule } from '../notice/notice.module.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import type { JobQueue } from '../../jobs/types.js';
import { AdminDashboardService } from './admin-dashboard.service.js';
import { AdminNoticesService } from './admin-notices.service.js';
import { dashboardRoutes, noticesRoutes } from './admin-dashboard.routes.js';
import { DashboardRepo } from './dashboard.repo.js';
import { AdminModelsService } from './admin-models.service.js';
import { modelsRoutes } from './admin-models.routes.js';
import type { LlmRegistry } from '../llm/llm-registry.js';
import type { SensitiveLexicon } from '../lexicon/lexicon.service.js';
import type { SearchProvider } from '../../integrations/search/types.js';
import type { ImageGenerator } from '../../integrations/imagegen/index.js';
import type { TopicService } from '../topic/topic.service.js';
import type { SourceSwitches } from '../sources/sources.service.js';
import { AdminSourcesService } from './admin-sources.service.js';

export interface AdminConsoleDeps {
  admin: AdminModule;
  vip: VipModule;
  notice: NoticeModule;
  db: Db;
  clock: Clock;
  jobs: JobQueue;
  /** The writer's model registry and the sensitive-word check (模型与来源). */
  llms: LlmRegistry;
  lexicon: SensitiveLexicon;
  /** The configured search vendor, the topic area (its trends sources) and the console's switches over them. */
  search: SearchProvider;
  /** The configured picture vendor (AI配图), switched like search. */
  imagegen: Pick<ImageGenerator, 'id' | 'model' | 'enabled'>;
  topics: TopicService;
  switches: SourceSwitches;
  /** The GrowthBook payload served (read-only in the console) and the file it came from. */
  flags: { file: string | null; payload: GrowthbookPayload };
}

/**
 * The console pages over other areas (catalogue, codes, models and lexicon): services that join an area's write and its audit entry in one
 * transaction. Access, users and orders are `admin.module.ts`'s; these routes go through the same role helper.
 */
export function createAdminConsole(d: AdminConsoleDeps) {
  return {
    routes: d.admin.routes,
    catalogue: new AdminCatalogueService(d.vip.catalogue, d.vip.points, d.admin.audit),
    codes: new AdminCodesService(d.vip.redeemCodes, d.admin.audit),
    dashboard: new AdminDashboardService(new DashboardRepo(d.db), d.jobs, d.clock, d.admin.audit, d.db),
    notices: new AdminNoticesService(d.notice.notices, d.notice.repo, d.clock, d.admin.audit),
    models: new AdminModelsService(d.db, d.llms, d.lexicon, d.admin.audit),
    sources: new AdminSourcesService(d.db, d.search, d.imagegen, d.topics, d.switches, d.admin.audit),
    flags: d.flags,
  };
}

export type AdminConsoleModule = ReturnType<typeof createAdminConsole>;

/** After registerAdmin (which installs the check that every /api/admin route declares its role). */
export async function registerAdminConsole(api: FastifyInstance, m: AdminConsoleModule) {
  await api.register(catalogueRoutes(m.routes, m.catalogue));
  await api.register(codesRoutes(m.routes, m.codes));
  await api.register(dashboardRoutes(m.routes, m.dashboard));
  await api.register(noticesRoutes(m.routes, m.notices));
  await api.register(modelsRoutes(m.routes, m.models, m.sources, m.flags));
}
