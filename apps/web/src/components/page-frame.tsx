import type { ReactNode } from 'react';

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

export function PageLoading() {
  return (
    <div className="page-loading" data-testid="page-loading" role="status" aria-live="polite">
      加载中…
    </div>
  );
}
