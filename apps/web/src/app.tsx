import { useState } from 'react';
import { ConfigProvider } from 'antd';
// The ES module: 'antd/locale/zh_CN' is a CommonJS re-export of antd/lib (its own copy of the picker locales).
import zhCN from 'antd/es/locale/zh_CN';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './routes';
import { ShellEffects } from './features/shell-effects';
import { ModalHost } from './features/modals/modal-host';
import { GlobalOverlay } from './features/feedback/global-overlay';
import { DemoBanner } from './components/demo-banner';
import { prefersReducedMotion } from './lib/reduced-motion';

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, staleTime: 10_000 } },
});

const theme = { token: { colorPrimary: '#1f4e79', borderRadius: 8 } };
// Menus, modals and messages appear without their slide and zoom when the system asks for reduced motion.
const stillTheme = { token: { ...theme.token, motion: false } };

export function App() {
  const [reducedMotion] = useState(prefersReducedMotion);
  return (
    <ConfigProvider locale={zhCN} theme={reducedMotion ? stillTheme : theme} button={{ autoInsertSpace: false }}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <ShellEffects />
          <AppRoutes />
          <ModalHost />
          <GlobalOverlay />
          <DemoBanner />
        </BrowserRouter>
      </QueryClientProvider>
    </ConfigProvider>
  );
}
