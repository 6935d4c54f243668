import { Button, Empty } from 'antd';
import { RefreshButton } from './refresh';

/** No bound account: the figures come from bound accounts, so the way forward is to bind one. */
export function NoAccount(props: { onBind(): void }) {
  return (
    <Empty
      data-testid="data-no-account"
      description={
        <>
          <strong>还没有绑定平台账号</strong>
          <div className="muted">绑定小红书、公众号等账号后，这里会每天汇总粉丝、阅读与互动数据。</div>
        </>
      }
    >
      <Button type="primary" onClick={props.onBind} data-testid="data-bind">
        绑定账号
      </Button>
    </Empty>
  );
}

/** Bound but no snapshot yet: say when the first arrives, and offer to take one now. */
export function NoData(props: { accountCount: number }) {
  return (
    <Empty
      data-testid="data-no-data"
      description={
        <>
          <strong>已绑定 {props.accountCount} 个账号，暂无数据</strong>
          <div className="muted">系统每天自动同步一次，首份数据将在下次同步后出现；也可以点击刷新立即同步。</div>
        </>
      }
    >
      <RefreshButton type="primary" />
    </Empty>
  );
}
