import TurndownService from 'turndown';
import { marked, type Token, type Tokens } from 'marked';

/** The small Markdown subset our writers produce: headings, lists, quotes, paragraphs, bold, links. */
export type Block =
  { type: 'heading'; level: 1 | 2 | 3; text: string } | { type: 'list'; ordered: boolean; items: string[] } | { type: 'quote'; text: string } | { type: 'paragraph'; text: string };

const toBlock = (token: Token): Block[] => {
  switch (token.type) {
    case 'heading':
      return [{ type: 'heading', level: Math.min((token as Tokens.Heading).depth, 3) as 1 | 2 | 3, text: (token as Tokens.Heading).text.trim() }];
    case 'list': {
      const list = token as Tokens.List;
      return [{ type: 'list', ordered: list.ordered, items: list.items.map((i) => i.text.trim()) }];
    }
    case 'blockquote':
      return [{ type: 'quote', text: (token as Tokens.Blockquote).text.trim() }];
    case 'paragraph':
    case 'text':
    case 'code':
      return [{ type: 'paragraph', text: (token as Tokens.Paragraph).text.trim() }];
    default:
      return [];
  }
};

/** Top-level blocks of a Markdown document (via marked's lexer), for building .docx files. */
export function parseBlocks(md: string): Block[] {
  return marked.lexer(md.replace(/\r/g, '')).flatMap(toBlock);
}

const turndown = new TurndownService({ headingStyle: 'atx', bulletListMarker: '-', codeBlockStyle: 'fenced' });
turndown.remove(['script', 'style', 'iframe']);

export function htmlToMarkdown(html: string): string {
  return turndown.turndown(html);
}

/** Plain text for summaries and checks. */
export function stripMarkdown(md: string): string {
  return md
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/^\s*[-*+>]\s+/gm, '')
    .replace(/\*\*/g, '')
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    .replace(/\n{2,}/g, '\n')
    .trim();
}
