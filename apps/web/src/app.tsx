import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';

/** Placeholder until the shell lands: proves the server serves the built web app. */
export function App() {
  return (
    <ConfigProvider locale={zhCN}>
      <main style={{ padding: 48 }}>
        <h1>砚 Inkstone</h1>
        <p>AI 写作与多平台发布工作台</p>
      </main>
    </ConfigProvider>
  );
}
