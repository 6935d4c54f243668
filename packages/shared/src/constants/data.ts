// Constants of the data contract that the web uses at run time, kept free of zod so the web bundle need not load it.
/** The longest custom range (days). */
export const DATA_RANGE_MAX_DAYS = 366;

/** Daily account figures a series can show. `followers` is the end-of-day total; the others are that day's amounts. */
export const dataMetrics = ['followers', 'newFollowers', 'views', 'likes', 'collects', 'comments', 'shares'] as const;

/** `GET /api/data/notes`: the content table (latest figures of each note). */
export const dataNoteSorts = ['publishedAt', 'views', 'likes', 'collects', 'comments', 'shares'] as const;
