/**
 * What a failed publish tells the user: why, in Chinese, and what to do next. The platform's own
 * words are kept when it gave some (they name the rule that was broken); the advice comes from the code.
 */
export type PublishErrorCode = 'session_expired' | 'captcha' | 'content_rejected' | 'rate_limited' | 'transient' | 'unbound';

const reasons: Record<PublishErrorCode, string> = {
  session_expired: '账号登录已失效',
  captcha: '平台要求进行安全验证',
  content_rejected: '平台拒绝发布这篇内容',
  rate_limited: '发布太频繁，被平台暂时限制',
  transient: '平台暂时没有完成发布（网络或平台故障）',
  unbound: '账号已解绑',
};

const advice: Record<PublishErrorCode, string> = {
  session_expired: '请到「账号管理」重新扫码绑定该账号，然后再次发布。',
  captcha: '请先在手机上打开该平台完成验证，再到「账号管理」重新扫码绑定后重新发布。',
  content_rejected: '请根据提示修改标题、正文、图片或话题（避免敏感词、外部链接和联系方式）后重新发布。',
  rate_limited: '请过 30 分钟左右再重新发布，短时间内不要连续发多篇。',
  transient: '已自动重试仍未成功，请稍后重新发布；如果一直失败，请通过「帮助与反馈」告诉我们。',
  unbound: '请重新绑定该账号后再发布。',
};

const hasChinese = (s: string) => /[\u4e00-\u9fff]/.test(s);

export function isPublishErrorCode(code: string): code is PublishErrorCode {
  return code in reasons;
}

/** `detail` is the platform's message; used only when it is readable Chinese. */
export function publishFailureMessage(code: string, detail?: string | null): string {
  const c: PublishErrorCode = isPublishErrorCode(code) ? code : 'transient';
  const why = detail && hasChinese(detail) ? detail.trim().replace(/[。．.!！\s]+$/u, '') : reasons[c];
  return `${why}。${advice[c]}`;
}
