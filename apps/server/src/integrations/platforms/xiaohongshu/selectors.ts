import type { SiteProfile } from '../site-steps.js';

/**
 * Every path and locator the Xiaohongshu creator-centre automation uses, in one place, as the operator console shows
 * and overrides it. Each step lists its locators newest site first, then the previous generation, role and text before
 * class names: the site moved Quill -> TipTap (2026-02), `button.publishBtn` -> `<xhs-publish-btn>` (2026-05), dropped
 * `upload-input` after the first image and hid decoy copies of its tabs (2026-04). Sources: the evidence table in
 * docs/notes (shared/notes/platforms-2026.md): xpzouying/xiaohongshu-mcp, dreammis/social-auto-upload,
 * leeguooooo/chrome-use-sites, ReaJason/xhs. The local page sets in test/standins/xhs-creator (2025 and 2026) model both.
 */
export const xhsProfile: SiteProfile = {
  paths: {
    login: '/login',
    publish: '/publish/publish?from=homepage&target=image',
    publishPrefix: '/publish/publish',
    successPrefix: '/publish/success',
    personalInfo: '/api/galaxy/creator/home/personal_info',
    /** v2 (2026): 10 notes a page, `page` -1 at the end; `time` is China-local. */
    postedNotes: '/api/galaxy/v2/creator/note/user/posted?tab=0&page=',
    /** v1 (2025), tried when v2 is not there. */
    postedNotesV1: '/api/galaxy/creator/note/user/posted?tab=0',
    topicSuggest: '/web_api/sns/v1/search/topic',
    /** 2025 data centre: server-rendered tables, read by class names (the fallback). */
    accountData: '/statistics/account',
    notesData: '/statistics/data-analysis',
    /** 2026 data centre: 账号概览 v2, whose script asks account/base (chrome-use-sites fixtures, 2026-09-30). */
    accountDataV2: '/statistics/account/v2',
    accountBaseApi: '/api/galaxy/v2/creator/datacenter/account/base',
    /** The follower total per day (`fans_list`), asked through the page's signer. */
    fansOverallApi: '/api/galaxy/creator/data/fans/overall_new',
    /** One note's totals, as the 笔记数据 detail asks them (note id appended). */
    noteBaseApi: '/api/galaxy/creator/datacenter/note/base?note_id=',
    captchaPrefix: '/website-login/captcha',
  },
  steps: {
    'login.qrSwitch': ['.login-box-container img.css-wemwzq', 'div[class*="login-box"] img.css-wemwzq', '.login-box-container img[alt*="扫码"]'],
    /** The QR: the www site's class first (kept by the 2025 creator page), else found by size (see readQr). */
    'login.qrImage': ['.login-box-container img.qrcode-img'],
    /** Text that says the QR panel is showing. */
    'login.qrPanelText': ['text=扫一扫', 'text=扫码登录'],
    'login.box': ['.login-box-container', 'div[class*="login-box"]'],
    'login.expired': ['.login-box-container .qrcode-status.expired', 'text=二维码已过期'],
    'login.scanned': ['.login-box-container .qrcode-status.scanned', 'text=扫码成功'],
    'tab.image': ['.creator-tab:has-text("上传图文")', 'div[class*="tab"]:has-text("上传图文")'],
    'tab.imageActive': ['.creator-tab.active:has-text("上传图文")'],
    'upload.input': ['input[type="file"][accept*="image"]', 'input[type="file"][accept*=".jpg"]', 'input.upload-input'],
    'upload.preview': ['.img-preview-area .pr', '.img-preview-area .img-container', '.img-preview-area img'],
    title: ['div.d-input input[placeholder*="标题"]', 'input.d-text[placeholder*="标题"]', 'input[placeholder*="填写标题"]'],
    body: [
      'div.tiptap.ProseMirror[contenteditable="true"]',
      '[role="textbox"][contenteditable="true"]',
      '[contenteditable="true"]:has(p[data-placeholder*="输入正文描述"])',
      'div.ql-editor[contenteditable="true"]',
    ],
    'topics.item': ['#creator-editor-topic-container .item'],
    'declare.open': ['text=添加内容类型声明', '.content-type-declare', '[class*="declare"]:has-text("声明")'],
    'declare.ai': ['.d-popover :text("笔记含AI合成内容")', '.d-dropdown :text("笔记含AI合成内容")', 'text=笔记含AI合成内容'],
    'declare.dismiss': ['.d-modal:has-text("原创声明") button:has-text("取消")', '.d-modal button:has-text("取消")', '.d-modal .close'],
    'schedule.switch': ['.post-time-wrapper .d-switch', '.custom-switch-card:has-text("定时发布") .d-switch'],
    'schedule.input': ['.date-picker-container input', '.d-datepicker-input-filter input', '.post-time-wrapper .date-picker input'],
    /** The custom element's 发布 pill is right-anchored inside a closed shadow root: clicked by position (see submit). */
    'submit.host': ['xhs-publish-btn[is-publish="true"]', 'xhs-publish-btn'],
    'submit.button': ['.publish-page-publish-btn button.bg-red', 'button.ce-btn.bg-red', 'button.publishBtn', 'button:text-is("发布")', 'button:text-is("定时发布")'],
    'confirm.toast': ['.d-toast .d-toast-content', '.d-toast'],
    'confirm.captcha': ['#red-captcha', '.red-captcha-slider', 'text=安全验证'],
    'data.updatedTo': ['.data-update-time'],
    'data.trendRows': ['table.trend-table tbody tr'],
    'data.noteItems': ['.note-data-list .note-data-item'],
  },
};

/** Inside a data-centre note item (the page's own markup; evaluated in the page, not located). */
export const xhsNoteCells = { title: '.note-info .title', time: '.note-info .publish-time', cell: '.note-data .data-cell' } as const;

export const xhsNoteUrl = 'https://www.xiaohongshu.com/explore/';

/** Captcha and risk pages the site sends a session to (peers: ReaJason/xhs, MediaCrawler). */
export const xhsCaptchaMarkers = { urls: [/\/website-login\/captcha/, /verifyUuid=/, /\/website-login\/error/], texts: /安全验证|请求太频繁|当前账号存在异常/ };

/** The creator session's cookies: the access token says logged in, the user id cookie says who (personal_info has no id). */
export const xhsCookies = { accessToken: 'access-token-creator.xiaohongshu.com', userId: 'x-user-id-creator.xiaohongshu.com' } as const;
