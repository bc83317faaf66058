import { Link } from 'react-router';
import { REGISTER_PATHS } from './shared-paths';

const LINKS = [
  { key: 'enterprise', to: REGISTER_PATHS.enterprise, label: '企业注册' },
  { key: 'realName', to: REGISTER_PATHS.realName, label: '个人实名注册' },
  { key: 'creditCode', to: REGISTER_PATHS.creditCodeLogin, label: '统一社会信用代码登录' },
  { key: 'activate', to: REGISTER_PATHS.activate, label: '企业激活' },
] as const;

/**
 * The sign-in page's one row of links to registration, activation and the other sign-in (on /creditCode the account
 * sign-in takes the place of the credit-code one).
 */
export function RegisterLinks({ current }: { current: 'login' | 'creditCode' }) {
  const links = LINKS.map((l) =>
    l.key === 'creditCode' && current === 'creditCode'
      ? { key: 'login', to: REGISTER_PATHS.login, label: '账号登录' }
      : l,
  );
  return (
    <nav
      data-testid="register-links"
      aria-label="注册与激活"
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        justifyContent: 'center',
        gap: '4px 14px',
        marginTop: 18,
        fontSize: 13,
      }}
    >
      {links.map((l) => (
        <Link key={l.key} to={l.to} data-testid={`register-link-${l.key}`}>
          {l.label}
        </Link>
      ))}
    </nav>
  );
}
