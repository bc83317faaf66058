import { LoginPage } from '../auth';

/**
 * 统一社会信用代码登录 (/creditCode): the sign-in page whose account is the enterprise's credit code; the server maps it
 * to the enterprise's administrator account (same encryption, captcha and lock rules as any sign-in).
 */
export default function CreditCodeLoginPage() {
  return <LoginPage heading="统一社会信用代码登录" creditCode />;
}
