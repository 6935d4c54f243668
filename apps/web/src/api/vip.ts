import { ErrorCode } from '@inkstone/shared';
import { get } from './request';

export interface UserScore {
  score?: number;
  totalScore?: number;
  vipType?: string;
  expiredTime?: string | null;
  openPayment?: boolean;
}

export const vipApi = {
  /** May not exist yet (1002): the caller treats that as "no balance known". */
  userScore: () => get<UserScore>('/vip/user/score', undefined, { quietCodes: [ErrorCode.NOT_FOUND] }),
};
