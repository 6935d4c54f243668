import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { MainLayout } from './layouts/main-layout';
import { AgentLayout } from './layouts/agent-layout';
import { StandaloneLayout } from './layouts/standalone-layout';
import { AGENT_STATE_FLAG, useFlag, useFlagsReady } from './features/flags/flags';
import { useIsLogin } from './stores/global';

const Home = lazy(() => import('./pages/home'));
const AgentHome = lazy(() => import('./pages/agent-home'));
const Knowledge = lazy(() => import('./pages/knowledge'));
const Topic = lazy(() => import('./pages/topic'));
const Mine = lazy(() => import('./pages/mine'));
const DataAnalyse = lazy(() => import('./pages/data-analyse'));
const IntegralEmpty = lazy(() => import('./pages/integral-empty'));
const OrderInfo = lazy(() => import('./pages/order-info'));
const AccountManager = lazy(() => import('./pages/account-manager'));
const Persona = lazy(() => import('./pages/persona'));
const OperationBoard = lazy(() => import('./pages/operation-board'));
const Notifications = lazy(() => import('./pages/notifications'));
const NotFound = lazy(() => import('./pages/not-found'));
const Editor = lazy(() => import('./pages/editor'));
const Agent = lazy(() => import('./pages/agent'));
const XhsEditor = lazy(() => import('./pages/xhs-editor'));
const PdfDetail = lazy(() => import('./pages/pdf-detail'));
const ImageEditor = lazy(() => import('./pages/image-editor'));
const Divergent = lazy(() => import('./pages/divergent'));
const PurchaseAgreement = lazy(() => import('./pages/purchase-agreement'));
const PointsRule = lazy(() => import('./pages/points-rule'));
const Integral = lazy(() => import('./pages/integral'));
const Activity = lazy(() => import('./pages/activity'));
const PersonalSet = lazy(() => import('./pages/personal-set'));
const AccountMatrix = lazy(() => import('./pages/account-matrix'));
/** Only the gate: it asks the server for a role before it loads the console (pages/admin). */
const AdminGate = lazy(() => import('./pages/admin-gate'));

/** Routes shared by the main and the agent-state layouts (spec section 2). */
const layoutChildren = (
  <>
    <Route path="knowledge" element={<Knowledge />} />
    <Route path="topic" element={<Topic />} />
    <Route path="mine" element={<Mine />} />
    <Route path="dataAnalyse" element={<DataAnalyse />} />
    <Route path="integralEmpty" element={<IntegralEmpty />} />
    <Route path="orderInfo" element={<OrderInfo />} />
    <Route path="accountManager" element={<AccountManager />} />
    <Route path="accountManager/persona/:personaId" element={<Persona />} />
    <Route path="notifications" element={<Notifications />} />
  </>
);

function Booting() {
  return (
    <div className="booting" data-testid="app-booting" role="status">
      <span className="logo-mark">砚</span>
    </div>
  );
}

export function AppRoutes() {
  const isLogin = useIsLogin();
  const flagsReady = useFlagsReady();
  const agentOn = useFlag(AGENT_STATE_FLAG);
  // The layout depends on both the session and the flag: wait for them rather than flash the wrong one.
  if (isLogin === 'UNKNOWN' || (isLogin === true && !flagsReady)) return <Booting />;
  const agentLayout = isLogin === true && agentOn;

  return (
    <Routes>
      <Route path="admin/*" element={<AdminGate />} />
      <Route element={<StandaloneLayout />}>
        <Route path="editor" element={<Editor />} />
        <Route path="agent" element={<Agent />} />
        <Route path="xhsEditor" element={<XhsEditor />} />
        <Route path="pdfDetail" element={<PdfDetail />} />
        <Route path="imageEditor/:taskId" element={<ImageEditor />} />
        <Route path="divergent" element={<Divergent />} />
        <Route path="purchaseAgreement" element={<PurchaseAgreement />} />
        <Route path="pointsRule" element={<PointsRule />} />
        <Route path="integral" element={<Integral />} />
        <Route path="activity" element={<Activity />} />
        <Route path="personalSet/:type?" element={<PersonalSet />} />
        <Route path="accountMatrix" element={<AccountMatrix />} />
      </Route>
      {agentLayout ? (
        <Route element={<AgentLayout />}>
          <Route index element={<AgentHome />} />
          {layoutChildren}
          <Route path="operationBoard/:accountId?" element={<OperationBoard />} />
        </Route>
      ) : (
        <Route element={<MainLayout />}>
          <Route index element={<Home />} />
          {layoutChildren}
          {/* Without the flag the board opens in the main layout, so a comment notification always lands on a real page. */}
          {isLogin === true ? <Route path="operationBoard/:accountId?" element={<OperationBoard />} /> : null}
        </Route>
      )}
      {/* Unknown paths (and /operationBoard logged out) show the default main layout. */}
      <Route element={<MainLayout />}>
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
