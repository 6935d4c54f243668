import { Link } from 'react-router';

export function Logo() {
  return (
    <Link to="/" className="logo" aria-label="砚 Inkstone 首页">
      <span className="logo-mark">砚</span>
      <span className="logo-text">Inkstone</span>
    </Link>
  );
}
