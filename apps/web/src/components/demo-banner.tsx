import { Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../api/query-keys';

/** `/healthz` answers `demo: true` on a public server running on sandboxes (ALLOW_SANDBOXES=1). */
export function isDemoHealth(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { demo?: unknown }).demo === true;
}

async function fetchDemo(): Promise<boolean> {
  const res = await fetch('/healthz', { headers: { accept: 'application/json' } });
  // Anything but the server's JSON (an old server, a dev server without the proxy) means no banner.
  return res.ok ? isDemoHealth(await res.json().catch(() => null)) : false;
}

/** On a demo site every page says so: codes, scans, payments and publishing there are simulated. */
export function DemoBanner() {
  const { data: demo } = useQuery({ queryKey: queryKeys.healthz.demo, queryFn: fetchDemo, staleTime: Infinity, retry: false });
  if (!demo) return null;
  return (
    <Tag
      color="orange"
      role="status"
      data-testid="demo-banner"
      style={{ position: 'fixed', left: 16, bottom: 16, zIndex: 1000, margin: 0, padding: '4px 10px', fontSize: 13, pointerEvents: 'none' }}
    >
      演示环境：短信、扫码登录、支付与发布均为模拟，请勿填写真实信息
    </Tag>
  );
}
