import { useState } from 'react';
import { Select, Switch } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { SettingItem, SettingKey } from '@inkstone/shared';
import { userApi } from '../../api/user';
import { useNotificationStore } from '../../stores/notification';
import { dndActive, dndCheckedAt, dndChoices, dndUntil, type DndChoice } from './crop';
import { settle } from '../../api/request';

const settingsKey = ['settings', 'list'] as const;
const switches: { key: SettingKey; hint: string }[] = [
  { key: 'notificationEnable', hint: '在浏览器通知中提醒新的评论消息（需允许浏览器通知）' },
  { key: 'notifyComment', hint: '评论、私信与提及' },
  { key: 'notifyPublish', hint: '文章发布成功或失败' },
  { key: 'notifySystem', hint: '系统公告与活动' },
];

/** Mirrors a saved setting into the store the notifiers read. */
function apply(list: SettingItem[]) {
  const n = useNotificationStore.getState();
  for (const s of list) {
    if (s.settingKey === 'notificationEnable') n.setEnable(s.settingValue !== 'false');
    if (s.settingKey === 'doNotDisturb') n.setDonotDisturb(s.settingValue || '0');
    if (s.settingKey === 'notifyComment') n.setKinds({ comment: s.settingValue !== 'false' });
    if (s.settingKey === 'notifyPublish') n.setKinds({ publish: s.settingValue !== 'false' });
    if (s.settingKey === 'notifySystem') n.setKinds({ system: s.settingValue !== 'false' });
  }
}

/** The settings catalogue (/user/setting/list) drives every switch; each change is saved at once. */
export function NoticeTab() {
  const qc = useQueryClient();
  const list = useQuery({ queryKey: settingsKey, queryFn: userApi.settings });
  // Read at mount and after each save: whether do-not-disturb is still on is decided against this moment.
  const [now, setNow] = useState(() => Date.now());
  const permission = typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;

  const save = async (key: SettingKey, value: string) => {
    try {
      const next = await userApi.updateSetting(key, value);
      qc.setQueryData(settingsKey, next);
      apply(next);
      setNow(dndCheckedAt());
    } catch {
      // Shown by the request layer; the switch keeps the saved value.
    }
  };

  if (!list.data) return <p className="muted">加载中…</p>;
  const value = (key: SettingKey) => list.data.find((s) => s.settingKey === key);
  const dnd = value('doNotDisturb')?.settingValue ?? '0';
  const muted = dndActive(dnd, now);
  return (
    <div data-testid="settings-notice">
      <section className="settings-section">
        <h2>消息提醒</h2>
        {switches.map(({ key, hint }) => {
          const item = value(key);
          if (!item) return null;
          return (
            <div className="settings-row" key={key}>
              <div>
                <div className="label">{item.label}</div>
                <div className="muted">{hint}</div>
              </div>
              <Switch aria-label={item.label} data-testid={`setting-${key}`} checked={item.settingValue !== 'false'} onChange={(on) => settle(save(key, String(on)))} />
            </div>
          );
        })}
        {permission === 'denied' ? <p className="muted">浏览器已禁止本站通知，请在浏览器的网站设置中允许后再开启。</p> : null}
        {permission === 'default' ? (
          <p className="muted">
            浏览器尚未允许通知，
            <a onClick={() => void Notification.requestPermission().catch(() => {})} role="button">
              点此允许
            </a>
          </p>
        ) : null}
      </section>
      <section className="settings-section">
        <h2>免打扰</h2>
        <div className="settings-row">
          <div>
            <div className="label">免打扰</div>
            <div className="muted" data-testid="dnd-state">
              {muted ? `免打扰至 ${dayjs(Number(dnd)).format('MM-DD HH:mm')}` : '未开启'}
            </div>
          </div>
          <Select<DndChoice>
            aria-label="免打扰时长"
            data-testid="dnd-select"
            style={{ width: 150 }}
            value={muted ? undefined : 'off'}
            placeholder="已开启"
            onChange={(c) => settle(save('doNotDisturb', dndUntil(c, new Date())))}
            options={dndChoices.map((c) => ({ value: c.value, label: c.label }))}
          />
        </div>
      </section>
    </div>
  );
}
