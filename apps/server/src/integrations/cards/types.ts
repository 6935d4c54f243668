/**
 * Card rendering (DESIGN section 5: "ours", no vendor): typographic PNG cards drawn on the server with CJK fonts.
 * A template lays out the text; a theme colours it. The graphic-posts work adds templates behind this same interface.
 */
export interface CardInput {
  /** A template id from `templates`; unknown ids are refused by the caller's validation. */
  templateId: string;
  title: string;
  subtitle?: string;
  /** A theme id from `themes`; absent = the template's default. */
  theme?: string;
}

export interface CardTemplateInfo {
  id: string;
  name: string;
  width: number;
  height: number;
}

export interface CardThemeInfo {
  id: string;
  name: string;
}

export interface CardRenderer {
  readonly templates: readonly CardTemplateInfo[];
  readonly themes: readonly CardThemeInfo[];
  /** PNG bytes of the card. Throws `CardInputError` for an unknown template or theme. */
  render(input: CardInput): Promise<Buffer>;
}

export class CardInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CardInputError';
  }
}
