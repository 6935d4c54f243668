import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { AliyunSmsSender } from './aliyun.js';
import { OutboxSmsSender } from './outbox.js';
import { TencentSmsSender } from './tencent.js';
import type { SmsSender } from './types.js';

/** Config has already checked that the chosen vendor's keys are present. */
export function createSmsSender(config: Config, db: Db, log: FastifyBaseLogger): SmsSender {
  switch (config.SMS_PROVIDER) {
    case 'aliyun':
      return new AliyunSmsSender({
        accessKeyId: config.ALIYUN_SMS_ACCESS_KEY_ID!,
        accessKeySecret: config.ALIYUN_SMS_ACCESS_KEY_SECRET!,
        signName: config.ALIYUN_SMS_SIGN_NAME!,
        templateCode: config.ALIYUN_SMS_TEMPLATE_CODE!,
        endpoint: config.ALIYUN_SMS_ENDPOINT,
      });
    case 'tencent':
      return new TencentSmsSender({
        secretId: config.TENCENT_SMS_SECRET_ID!,
        secretKey: config.TENCENT_SMS_SECRET_KEY!,
        sdkAppId: config.TENCENT_SMS_SDK_APP_ID!,
        signName: config.TENCENT_SMS_SIGN_NAME!,
        templateId: config.TENCENT_SMS_TEMPLATE_ID!,
        region: config.TENCENT_SMS_REGION,
        endpoint: config.TENCENT_SMS_ENDPOINT,
      });
    case 'outbox':
      return new OutboxSmsSender(db, log);
  }
}
