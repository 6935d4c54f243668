import { z } from 'zod';

/** The reply envelope of every `/api` call. */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ code: z.number().int(), msg: z.string(), data });

export type Envelope<T> = { code: number; msg: string; data: T };

/** Mainland China mobile number: 11 digits starting 1[3-9]. */
export const phoneSchema = z
  .string({ error: '请输入手机号' })
  .trim()
  .regex(/^1[3-9]\d{9}$/, '手机号格式不正确，请输入11位中国大陆手机号');

export const smsCodeSchema = z
  .string({ error: '请输入验证码' })
  .trim()
  .regex(/^\d{6}$/, '验证码为6位数字');

export const pageQuery = z.object({
  pageNum: z.coerce.number({ error: 'pageNum 必须是数字' }).int().min(1, 'pageNum 最小为1').default(1),
  pageSize: z.coerce.number({ error: 'pageSize 必须是数字' }).int().min(1, 'pageSize 最小为1').max(200, 'pageSize 最大为200').default(20),
});

export const pageOf = <T extends z.ZodType>(item: T) => z.object({ records: z.array(item), total: z.number().int(), pageNum: z.number().int(), pageSize: z.number().int() });
/** A page of `T` as `pageOf` describes it (for generic client code). */
export type Page<T> = Omit<z.infer<ReturnType<typeof pageOf>>, 'records'> & { records: T[] };

export const emptyData = z.null();
