import type { ReactNode } from 'react';
import { Empty } from 'antd';
import { Link } from 'react-router';

export function PageFrame(props: { testId: string; title: string; extra?: ReactNode; children: ReactNode }) {
  return (
    <section className="page" data-testid={props.testId}>
      <header className="page-head">
        <h1 className="page-title">{props.title}</h1>
        {props.extra}
      </header>
      {props.children}
    </section>
  );
}

/** Honest placeholder for routes whose feature is a later issue: never a blank screen. */
export function ComingSoon(props: { testId: string; title: string; description: string; children?: ReactNode }) {
  return (
    <PageFrame testId={props.testId} title={props.title}>
      <div className="coming-soon" data-testid="coming-soon">
        <Empty
          description={
            <>
              <strong>该功能正在建设中</strong>
              <div className="muted">{props.description}</div>
            </>
          }
        >
          <Link to="/">返回首页</Link>
        </Empty>
      </div>
      {props.children}
    </PageFrame>
  );
}

export function PageLoading() {
  return (
    <div className="page-loading" data-testid="page-loading" role="status" aria-live="polite">
      加载中…
    </div>
  );
}
