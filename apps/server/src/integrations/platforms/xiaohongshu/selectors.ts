/**
 * Every selector and path the Xiaohongshu creator-center automation uses, in one place: when the
 * site changes, this file (and the local page set in test/standins/xhs-creator) is what changes.
 */
export const xhsPaths = {
  login: '/login',
  publish: '/publish/publish?from=homepage&target=image',
  successPrefix: '/publish/success',
  personalInfo: '/api/galaxy/creator/home/personal_info',
  postedNotes: '/api/galaxy/creator/note/user/posted?tab=0',
  topicSuggest: '/web_api/sns/v1/search/topic',
  unreadCount: '/api/sns/web/unread_count',
  mentions: '/api/sns/web/v1/you/mentions?num=20&cursor=',
  noteUrl: 'https://www.xiaohongshu.com/explore/',
} as const;

export const xhsSelectors = {
  login: {
    /** The corner icon that switches the password panel to the QR panel. */
    qrSwitch: '.login-box-container img.css-wemwzq',
    qrImage: '.login-box-container img.qrcode-img',
    scanned: '.login-box-container .qrcode-status.scanned',
    expired: '.login-box-container .qrcode-status.expired',
  },
  publish: {
    imageTab: '.creator-tab:has-text("上传图文")',
    uploadInput: 'input.upload-input',
    title: 'input.d-text[placeholder*="标题"]',
    body: 'div.ql-editor[contenteditable="true"]',
    topicItem: '#creator-editor-topic-container .item',
    scheduleSwitch: '.post-time-wrapper .d-switch',
    scheduleInput: '.post-time-wrapper .date-picker input',
    submit: 'button.publishBtn',
    toast: '.d-toast .d-toast-content',
    captcha: '#red-captcha, .red-captcha-slider',
  },
} as const;
