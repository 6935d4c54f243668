import { Link } from 'react-router';

export function Logo() {
  return (
    <Link to="/" className="logo" aria-label="砚 首页">
      <span className="logo-mark">砚</span>
      <span className="logo-text">AI 写作</span>
    </Link>
  );
}
