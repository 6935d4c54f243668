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
  /** 数据中心: 账号概览 (daily trend of the last 30 days) and 笔记数据 (each note's totals). */
  accountData: '/statistics/account',
  notesData: '/statistics/data-analysis',
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
  data: {
    /** "数据更新至 YYYY-MM-DD": the newest complete day. */
    updatedTo: '.data-update-time',
    /** Cells: 日期, 观看数, 点赞数, 收藏数, 评论数, 分享数, 净涨粉, 粉丝总数. */
    trendRows: 'table.trend-table tbody tr',
    noteItems: '.note-data-list .note-data-item',
    noteTitle: '.note-info .title',
    noteTime: '.note-info .publish-time',
    /** Figure cells by data-key: view, like, collect, comment, share. */
    noteCell: '.note-data .data-cell',
  },
} as const;
