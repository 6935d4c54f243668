/**
 * Card rendering (DESIGN section 5: "ours", no vendor): typographic PNG cards drawn on the server with CJK fonts.
 * A template lays out the text; a theme colours it.
 */
export interface CardInput {
  /** A template id from `templates`; unknown ids are refused with CardInputError. */
  templateId: string;
  /** The card's heading (the cover's big title; a quote's author). */
  title: string;
  /** The cover's subtitle. */
  subtitle?: string;
  /**
   * The card's body: list, checklist and steps take one item per line; comparison takes `左 | 右` lines (the first
   * names the two sides); quote, paragraph and highlight take free text.
   */
  text?: string;
  /** A theme id from `themes`; absent = the first theme. */
  theme?: string;
  /**
   * Page number in the corner (`02`); absent = none. Only the card's own position, not the total, so adding or
   * removing a card redraws the cards after it and no others.
   */
  page?: number;
}

export interface CardTemplateInfo {
  id: string;
  name: string;
  description: string;
  width: number;
  height: number;
}

export interface CardThemeInfo {
  id: string;
  name: string;
  background: string;
  text: string;
  accent: string;
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
