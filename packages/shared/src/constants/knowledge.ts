// Constants of the knowledge contract that the web uses at run time, kept free of zod so the web bundle need not load it.
/** 知识库 (knowledge library): folders, documents, parse progress, full-text search. */
export const knowledgeLimits = {
  /** One uploaded document (spec section 9 upload cap). */
  fileMaxBytes: 20 * 1024 * 1024,
  /** A web page fetched for import. */
  pageMaxBytes: 5 * 1024 * 1024,
  /**
   * Characters of text one document may hold (300万字: a 1000-page book of dense pages). A small file can hold far
   * more (a 40 KB PDF 40 MB of text); the parse stops once past this and the document is refused.
   */
  textMaxChars: 3_000_000,
  folderNameMaxLength: 40,
  docNameMaxLength: 200,
  foldersMax: 100,
  searchQueryMaxLength: 100,
  searchLimitMax: 50,
  /** Default per-user quotas (the server's KNOWLEDGE_QUOTA may change them). */
  quota: { docs: 200, bytes: 500 * 1024 * 1024, vipDocs: 2000, vipBytes: 5 * 1024 * 1024 * 1024 },
} as const;

export const knowledgeExts = ['pdf', 'docx', 'md', 'txt', 'html'] as const;
