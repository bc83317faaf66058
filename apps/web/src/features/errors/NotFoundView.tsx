import { useNavigate } from 'react-router';

export const NOT_FOUND_TEXT = '抱歉，您访问的页面不存在';

/** The 404 page (plain CSS, no UI kit): a button back to `/` (the guard sends a signed-in visitor on to the home URL). */
export function NotFoundView() {
  const navigate = useNavigate();
  return (
    <div className="ks-result" data-testid="notfound">
      <div className="ks-result-code" aria-hidden>
        404
      </div>
      <h1 className="ks-result-title">页面不存在</h1>
      <p className="ks-result-sub">{NOT_FOUND_TEXT}</p>
      <div className="ks-result-actions">
        <button
          type="button"
          className="ks-btn ks-btn-primary"
          data-testid="notfound-home"
          onClick={() => navigate('/')}
        >
          返回首页
        </button>
      </div>
    </div>
  );
}
