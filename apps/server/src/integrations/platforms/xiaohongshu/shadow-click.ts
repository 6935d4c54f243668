import type { Locator, Page } from 'playwright-core';
import { PlatformError } from '../types.js';

interface CdpNode {
  nodeId: number;
  backendNodeId: number;
  nodeType: number;
  nodeName: string;
  nodeValue?: string;
  attributes?: string[];
  children?: CdpNode[];
  shadowRoots?: CdpNode[];
}

const textOf = (n: CdpNode): string => (n.nodeType === 3 ? (n.nodeValue ?? '') : [...(n.children ?? []), ...(n.shadowRoots ?? [])].map(textOf).join(''));

function findAll(n: CdpNode, match: (n: CdpNode) => boolean, out: CdpNode[] = []): CdpNode[] {
  if (match(n)) out.push(n);
  for (const c of [...(n.children ?? []), ...(n.shadowRoots ?? [])]) findAll(c, match, out);
  return out;
}

/**
 * Clicks the button labelled `text` inside a custom element's CLOSED shadow root (Xiaohongshu's `<xhs-publish-btn>`,
 * whose 发布 pill is right-anchored beside 暂存离开: the host's centre is not the button). Page scripts and
 * Playwright selectors cannot see into a closed root; the DevTools protocol can (DOM.getDocument with pierce). The
 * click is a real mouse click at the button's centre, as a person's would be.
 */
export async function clickShadowButton(page: Page, host: Locator, text: string): Promise<void> {
  await host.scrollIntoViewIfNeeded();
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: CdpNode };
    const tag = (await host.evaluate((el) => el.tagName)).toUpperCase();
    const hosts = findAll(root, (n) => n.nodeName === tag && !!n.shadowRoots?.length);
    const buttons = hosts.flatMap((h) =>
      (h.shadowRoots ?? []).flatMap((sr) => findAll(sr, (n) => n.nodeType === 1 && /^(BUTTON|DIV|SPAN)$/.test(n.nodeName) && textOf(n).trim() === text)),
    );
    // The innermost match is the button itself, not a wrapper holding both buttons' text.
    const target = buttons.at(-1);
    if (!target) throw new PlatformError(`发布按钮里没有找到「${text}」`);
    const { model } = (await cdp.send('DOM.getBoxModel', { backendNodeId: target.backendNodeId })) as { model: { content: number[] } };
    const q = model.content;
    const x = (q[0]! + q[2]! + q[4]! + q[6]!) / 4;
    const y = (q[1]! + q[3]! + q[5]! + q[7]!) / 4;
    await page.mouse.move(x - 30, y - 8, { steps: 4 });
    await page.mouse.click(x, y, { delay: 60 });
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
