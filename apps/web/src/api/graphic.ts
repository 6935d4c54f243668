import type { CoverBody, CoverReply } from '@inkstone/shared';
import { post } from './request';

export type { CoverReply };

export const graphicApi = {
  /** A 1080x1440 cover card rendered from the title; stored in the user's image library. */
  cover: (body: CoverBody) => post<CoverReply>('/graphic/cover', body),
};
