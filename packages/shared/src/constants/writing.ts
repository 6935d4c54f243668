// Constants of the writing contract that the web uses at run time, kept free of zod so the web bundle need not load it.
export const writingLimits = {
  promptMaxChars: 5000,
  quoteFilesMax: 5,
  abilityMaxChars: 5000,
  draftMaxChars: 200_000,
  /** Quoted documents (docx, pdf, txt, md). Images use limits.uploadMaxBytes (spec section 5). */
  quoteFileMaxBytes: 10 * 1024 * 1024,
  /** Parsed text kept per quoted file. */
  quoteFileMaxChars: 100_000,
  /** The saved home input, serialised. */
  homeInputMaxBytes: 32 * 1024,
} as const;

/**
 * SSE events of `GET /mp/task/stream/:taskId` (`id:` = stored event id, `event:` = type, `data:` = JSON):
 * progress {stage, message, percent} | reasoning {text} | delta {text} | reset {reason} (drop text streamed so far)
 * | title {title} | sources {items: SearchSource[]} | usage {promptTokens, completionTokens, totalTokens}
 * | done {draftId, title} | error {code, msg}. The stream ends after done or error.
 */
export const taskEventTypes = ['progress', 'reasoning', 'delta', 'reset', 'title', 'sources', 'usage', 'done', 'error'] as const;
