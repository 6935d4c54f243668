import { useQuery } from '@tanstack/react-query';
import { Tag } from 'antd';
import { writingApi } from '../../api/writing';
import { queryKeys } from '../../api/query-keys';
import { localDate, upcomingFestivals } from '../../features/writing/home-helpers';
import type { HomeForm } from './use-home-form';

/** Suggested words, coming festivals and the server's writing styles, each filling the input when picked. */
export function HomeSuggest({ f }: { f: HomeForm }) {
  const styles = useQuery({ queryKey: queryKeys.writing.styles, queryFn: writingApi.styles, staleTime: 3600_000 });
  const year = new Date().getFullYear();
  const festivals = useQuery({ queryKey: queryKeys.writing.festivals(year), queryFn: () => writingApi.festivals(year), staleTime: 3600_000 });
  const words = useQuery({ queryKey: queryKeys.writing.words, queryFn: writingApi.words, enabled: f.loggedIn, staleTime: 600_000 });
  const { top } = f;
  const addWord = (w: string) => f.setDoc('top', top ? `${top}${/[\s，。,]$/.test(top) ? '' : '，'}${w}` : w);
  const upcoming = upcomingFestivals(festivals.data ?? [], localDate());

  return (
    <div className="home-suggest">
      {words.data?.length ? (
        <section data-testid="suggest-words">
          <h3>推荐词</h3>
          {words.data.slice(0, 12).map((w) => (
            <Tag.CheckableTag key={w.word} checked={false} onChange={() => addWord(w.word)}>
              {w.word}
            </Tag.CheckableTag>
          ))}
        </section>
      ) : null}
      {upcoming.length ? (
        <section data-testid="festivals">
          <h3>节日节气</h3>
          <ul className="festival-list">
            {upcoming.map((x) => (
              <li key={`${x.date}-${x.name}`}>
                <button type="button" className="link-button" onClick={() => f.setDoc('top', x.suggestion)}>
                  <strong>{x.name}</strong> <span className="muted">{x.date.slice(5)}</span> {x.suggestion}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {styles.data?.length ? (
        <section data-testid="style-cards">
          <h3>写作风格</h3>
          <div className="style-cards">
            {styles.data.map((s) => (
              <button
                type="button"
                key={s.id}
                className={`style-card${s.writeType === f.writeType ? ' active' : ''}`}
                onClick={() => f.set({ writeType: s.writeType, editorContent: { ...f.input.editorContent, top: top || (s.example.startsWith('（') ? '' : s.example) } })}
              >
                <strong>{s.name}</strong>
                <span className="muted">{s.description}</span>
              </button>
            ))}
          </div>
        </section>
      ) : styles.isError ? (
        <p className="muted">写作风格加载失败</p>
      ) : null}
    </div>
  );
}
