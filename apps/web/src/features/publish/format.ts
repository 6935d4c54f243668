import type { ConnectionState, PublishJob, PublishResultReply } from '../../api/publish';
import type { PlatformLimits } from '../../api/publish';

export const connectionStateText: Record<ConnectionState, string> = {
  waiting: '等待扫码',
  scanned: '已扫码，请在手机上确认',
  confirmed: '已确认，正在完成登录…',
  completed: '登录完成，正在绑定…',
  bound: '绑定成功',
  expired: '二维码已过期',
  failed: '登录失败',
};

/** States after which the binding dialog stops polling. */
export const isTerminalConnection = (s: ConnectionState) => s === 'bound' || s === 'expired' || s === 'failed';

export const jobStatusText: Record<PublishJob['status'], string> = {
  queued: '排队中',
  running: '发布中',
  succeeded: '发布成功',
  failed: '发布失败',
};
const jobStatusColor: Record<PublishJob['status'], string> = {
  queued: 'default',
  running: 'processing',
  succeeded: 'success',
  failed: 'error',
};

/** A scheduled job waits in the queue: say when, not just "queued"; a job that ended as a platform draft (WeChat without API publishing) says so. */
export function jobStatusLabel(job: Pick<PublishJob, 'status' | 'runAt'> & { platformStatus?: PublishJob['platformStatus'] }, now: number): string {
  if (job.status === 'queued' && Date.parse(job.runAt) > now + 1000) return `定时发布 ${formatDateTime(job.runAt)}`;
  if (job.status === 'succeeded' && job.platformStatus === 'draft') return '已存草稿';
  // Taken by the platform but still under its review, or not approved (小红书「审核中」「未通过」).
  if (job.status === 'succeeded' && job.platformStatus === 'reviewing') return '审核中';
  if (job.status === 'succeeded' && job.platformStatus === 'rejected') return '未通过';
  return jobStatusText[job.status];
}

/** The tag colour: a note the platform did not approve is an error even though our job succeeded. */
export function jobStatusTagColor(job: Pick<PublishJob, 'status'> & { platformStatus?: PublishJob['platformStatus'] }): string {
  if (job.status === 'succeeded' && job.platformStatus === 'rejected') return 'error';
  if (job.status === 'succeeded' && (job.platformStatus === 'reviewing' || job.platformStatus === 'draft')) return 'warning';
  return jobStatusColor[job.status];
}

export const isResultSettled = (r: Pick<PublishResultReply, 'status'>) => r.status === 'succeeded' || r.status === 'failed' || r.status === 'partial';

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** Topics as the platforms take them: no '#', no blanks, no duplicates. */
export function normalizeTopics(raw: string[]): string[] {
  const out: string[] = [];
  for (const t of raw) {
    const v = t.replace(/^#+/, '').trim();
    if (v && !out.includes(v)) out.push(v);
  }
  return out;
}

/** Counts like the platforms do: one per code point, so an emoji is one character. */
export const textLength = (s: string) => [...s].length;

export interface DraftContent {
  title: string;
  body: string;
  images: string[];
  topics: string[];
}

/**
 * The strictest limits among the chosen accounts' platforms, checked before sending; the server
 * checks again (code 1706) with the exact wording per platform.
 */
export function contentProblems(c: DraftContent, limitsList: { platformName: string; limits: PlatformLimits }[]): string[] {
  const problems: string[] = [];
  if (!c.body.trim() && !c.title.trim()) problems.push('请填写标题或正文');
  for (const { platformName, limits: l } of limitsList) {
    const errs: string[] = [];
    if (l.titleRequired && !c.title.trim()) errs.push('请填写标题');
    if (textLength(c.title.trim()) > l.titleMax) errs.push(`标题最多${l.titleMax}字`);
    if (textLength(c.body) > l.bodyMax) errs.push(`正文最多${l.bodyMax}字`);
    if (c.images.length < l.imagesMin) errs.push(`至少${l.imagesMin}张图片`);
    if (c.images.length > l.imagesMax) errs.push(`最多${l.imagesMax}张图片`);
    if (c.topics.length > l.topicsMax) errs.push(`最多${l.topicsMax}个话题`);
    if (errs.length) problems.push(`${platformName}：${errs.join('；')}`);
  }
  return problems;
}

export type SniffedType = 'png' | 'jpeg' | 'gif' | 'pdf' | 'docx' | 'doc' | 'txt' | null;

/** Spec 5: the real type from the first bytes, whatever the file claims. */
export function sniffFileType(b: Uint8Array): SniffedType {
  const starts = (...sig: number[]) => sig.every((v, i) => b[i] === v);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'png';
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'gif';
  if (starts(0x25, 0x50, 0x44, 0x46)) return 'pdf';
  if (starts(0x50, 0x4b, 0x03, 0x04)) return 'docx';
  if (starts(0xd0, 0xcf, 0x11, 0xe0)) return 'doc';
  if (b.length > 0 && [...b].every((x) => x === 0x09 || x === 0x0a || x === 0x0d || (x >= 0x20 && x !== 0x7f))) return 'txt';
  return null;
}

const declaredOf = (mime: string, name: string): string => {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  const fromMime = mime.split('/')[1]?.toLowerCase() ?? '';
  const v = fromMime || ext;
  return v === 'jpg' ? 'jpeg' : v;
};

/** Spec 5's image rules and messages, in their order: type mismatch, allowed types, size. */
export function imageProblem(file: { type: string; name: string; size: number }, sniffed: SniffedType, maxBytes: number): string | null {
  const declared = declaredOf(file.type, file.name);
  if (sniffed && declared && sniffed !== declared && !(sniffed === 'txt' && declared === 'plain')) return '文件类型不匹配';
  if (sniffed !== 'png' && sniffed !== 'jpeg' && sniffed !== 'gif') return '请上传jpg、jpeg、png、gif格式的文件';
  if (file.size > maxBytes) return '请上传20MB以内的文件';
  return null;
}

export interface ImageRule {
  /** Images the strictest chosen platform needs. */
  min: number;
  /** Platforms whose rule is not met yet. */
  platformNames: string[];
  /** Why 发布 waits, e.g. "沙箱平台要求至少 1 张图片". */
  message: string;
}

/** The image minimum of the chosen platforms, when `count` images do not meet it (known before publishing). */
export function imageRule(limitsList: { platformName: string; limits: Pick<PlatformLimits, 'imagesMin'> }[], count: number): ImageRule | null {
  const unmet = limitsList.filter((p) => p.limits.imagesMin > count);
  if (!unmet.length) return null;
  const min = Math.max(...unmet.map((p) => p.limits.imagesMin));
  const platformNames = unmet.map((p) => p.platformName);
  return { min, platformNames, message: `${platformNames.join('、')}要求至少 ${min} 张图片` };
}

/** The image sources of an article's HTML, in order, without duplicates. */
export function htmlImages(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<img\b[^>]*?\bsrc=["']([^"']+)["']/gi)) if (!out.includes(m[1]!)) out.push(m[1]!);
  return out;
}
