import { z } from 'zod';

/** Default zod messages in Simplified Chinese; our schemas give field-specific ones where it matters. */
z.config(z.locales.zhCN());
