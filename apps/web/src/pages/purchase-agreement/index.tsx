import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-purchaseAgreement" title="会员服务协议" description="会员购买协议正文将在这里展示。" />;
}
