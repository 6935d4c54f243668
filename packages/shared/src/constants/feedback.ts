// Constants of the feedback contract that the web uses at run time, kept free of zod so the web bundle need not load it.
/** 帮助与反馈: what a user sends, and what they see of their own feedback. */
export const feedbackContentMaxLength = 1000;

export const feedbackContactMaxLength = 100;

export const feedbackImagesMax = 3;
