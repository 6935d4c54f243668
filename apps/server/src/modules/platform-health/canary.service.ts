import { deflateSync } from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { effectiveProfile, stepLabel, stepLabels, type SiteProfileSource, type StepName } from '../../integrations/platforms/site-steps.js';
import { PlatformError, SessionExpiredError, type PlatformId, type PublishContent } from '../../integrations/platforms/types.js';
import type { AccountService } from '../publish/account.service.js';
import { diagnosticOf, type StepFailureRecorder } from '../publish/step-failures.js';

/** What the canary posts, were it ever to post (it never clicks the final submit). */
export const canaryContent = (): PublishContent => ({
  kind: 'image',
  title: '巡检笔记',
  body: '这是一条平台巡检，不会被发布。',
  images: [canaryPng()],
  topics: ['平台巡检'],
});

export interface CanaryLine {
  ok: boolean;
  /** In Chinese: the step and its outcome. */
  text: string;
}

export interface CanaryResult {
  ok: boolean;
  platform: string;
  accountId: number;
  lines: CanaryLine[];
}

/** Thrown from `beforeSubmit`: an adapter that ignored `dryRun` is stopped right before its final click. */
class SubmitRefused extends Error {}

/** The publish steps a dry run goes through before the submit, in order (those the profile has). */
const DRY_RUN_STEPS: StepName[] = ['open', 'tab', 'upload', 'title', 'body', 'topics', 'declare'];

/**
 * 平台巡检 (`npm run admin -- platform:canary <platform> --account <id>`): with a bound account's session, checks the
 * login, then runs a publish of fixed content with `dryRun` (every step but the final submit) and reports each step in
 * Chinese. Nothing is posted: the adapter stops before the submit, and should one not, `beforeSubmit` (which every
 * adapter calls right before its final click) throws. A failed step is recorded like a publish's (平台健康).
 */
export class PlatformCanary {
  constructor(
    private readonly accounts: AccountService,
    private readonly profiles: SiteProfileSource,
    private readonly recorder: StepFailureRecorder,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  async run(platform: string, accountId: number): Promise<CanaryResult> {
    const lines: CanaryLine[] = [];
    const done = (ok: boolean) => ({ ok, platform, accountId, lines });
    const target = await this.accounts.forPublish(accountId);
    if (!target || target.account.platform !== platform) {
      lines.push({ ok: false, text: `读取账号：没有绑定在${this.accounts.adapterLabel(platform)}的账号 ${accountId}` });
      return done(false);
    }
    const { account } = target;
    const adapter = this.accounts.adapter(platform);
    lines.push({ ok: true, text: `读取账号：${adapter.label}账号「${account.accountName}」` });
    if (account.status === 'expired') {
      lines.push({ ok: false, text: `检查登录状态：登录已失效（${account.statusReason ?? '需要重新绑定'}），请让用户重新扫码绑定` });
      return done(false);
    }
    const key = String(account.id);
    try {
      const session = target.session();
      const profile = await adapter.checkSession(key, session);
      lines.push({ ok: true, text: `检查登录状态：有效（${profile.accountName}）` });
      const result = await adapter.publish(key, session, canaryContent(), {
        dryRun: true,
        beforeSubmit: () => Promise.reject(new SubmitRefused()),
      });
      if (!result.stoppedBeforeSubmit) {
        lines.push({ ok: false, text: '试发布：平台没有报告在提交前停止，请检查该平台的巡检支持' });
        return done(false);
      }
      for (const step of this.dryRunSteps(platform as PlatformId)) lines.push({ ok: true, text: `${stepLabels[step]}：通过` });
      lines.push({ ok: true, text: `${stepLabels.submit}：已找到，未点击（巡检不发布任何内容）` });
      for (const w of result.warnings ?? []) lines.push({ ok: true, text: `提示：${w}` });
      return done(true);
    } catch (err) {
      lines.push({ ok: false, text: this.describe(err) });
      const diagnostic = diagnosticOf(err);
      if (diagnostic) await this.recorder.record({ platform, source: 'canary', accountId: account.id, jobId: null, diagnostic });
      else if (!(err instanceof PlatformError) && !(err instanceof SubmitRefused)) this.log.warn({ err, platform, accountId }, 'canary: unexpected failure');
      return done(false);
    }
  }

  private dryRunSteps(platform: PlatformId): StepName[] {
    const builtIn = this.accounts.adapter(platform).siteProfile;
    if (!builtIn) return [];
    const names = new Set(Object.keys(effectiveProfile(builtIn, this.profiles.override(platform)).steps).map((k) => k.split('.')[0]));
    return DRY_RUN_STEPS.filter((s) => names.has(s));
  }

  private describe(err: unknown): string {
    if (err instanceof SubmitRefused || (err instanceof Error && err.cause instanceof SubmitRefused))
      return `${stepLabels.submit}：平台没有在提交前停止，巡检已拦下最后一步（未发布），请检查该平台对巡检的支持`;
    if (err instanceof SessionExpiredError) return `检查登录状态：登录已失效（${err.message}），请让用户重新扫码绑定`;
    const d = diagnosticOf(err);
    if (d) {
      const tried = d.tried.length ? `；已尝试：${d.tried.join(' | ')}` : '';
      return `${stepLabel(d.key)}（${d.key}）：失败，${d.message}${tried}${d.url ? `；页面：${d.url}` : ''}`;
    }
    return `失败：${err instanceof Error ? err.message : String(err)}`;
  }
}

/** Prints a canary's lines as the CLI shows them: ✓ / ✗ per step, then the verdict. */
export function formatCanary(r: CanaryResult): string {
  const head = `平台巡检：${r.platform}，账号 ${r.accountId}`;
  const body = r.lines.map((l) => `${l.ok ? '✓' : '✗'} ${l.text}`);
  return [head, ...body, r.ok ? '结果：通过（未发布任何内容）' : '结果：失败（未发布任何内容）'].join('\n');
}

// ---- the canary's picture: a 480x640 PNG (a pale page with a band), made here so the canary needs no file ----

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

let png: string | null = null;
export function canaryPng(): string {
  if (png) return png;
  const w = 480;
  const h = 640;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    const band = y > h * 0.4 && y < h * 0.6;
    for (let x = 0; x < w; x++) raw.set(band ? [232, 72, 85] : [250, 246, 240], y * (w * 3 + 1) + 1 + x * 3);
  }
  const bytes = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
  png = `data:image/png;base64,${bytes.toString('base64')}`;
  return png;
}
