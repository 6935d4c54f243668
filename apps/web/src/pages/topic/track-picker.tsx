import { useState } from 'react';
import { Button, Checkbox, Divider, Modal, Select, Space, Tag } from 'antd';
import { sysTrackSelectMax, userTrackMax } from '@inkstone/shared';
import { topicApi } from '../../api/topic';
import { useTrackStore } from '../../stores/track';
import { toast } from '../../features/notifications/toasts';
import { settle } from '../../api/request';

/** Pick system tracks (and sub-tracks) and type your own; saved as a whole with POST /topic/v3/track/save. */
export default function TrackPicker({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { trackData, sysTrack, userTrack, setTracks } = useTrackStore();
  const [sys, setSys] = useState<string[]>(sysTrack);
  const [own, setOwn] = useState<string[]>(userTrack);
  const [busy, setBusy] = useState(false);
  const toggle = (name: string) => setSys((l) => (l.includes(name) ? l.filter((x) => x !== name) : [...l, name]));
  const save = async () => {
    setBusy(true);
    try {
      const info = await topicApi.saveTracks({ sysTrack: sys, userTrack: own });
      setTracks({ trackData: info.trackData, customTrackData: info.customTrackData, isCreatorType: info.isCreatorType, sysTrack: info.sysTrack, userTrack: info.userTrack });
      toast.message('success', '赛道已保存', 2);
      onClose();
    } catch {
      // Shown by the request layer.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} onCancel={onClose} title="管理赛道" footer={null} destroyOnHidden width={640}>
      <div data-testid="track-picker">
        <p className="muted">
          选择你关注的行业赛道（最多{sysTrackSelectMax}个），也可以添加自定义赛道（最多{userTrackMax}个）。
        </p>
        {trackData.length === 0 && <p className="muted">赛道列表加载中或暂不可用。</p>}
        {trackData.map((t) => (
          <div key={t.id} className="track-group">
            <Checkbox checked={sys.includes(t.name)} onChange={() => toggle(t.name)} data-testid={`track-${t.name}`}>
              <b>{t.name}</b>
            </Checkbox>
            <Space size={4} wrap>
              {t.children.map((c) => (
                <Tag.CheckableTag key={c.id} checked={sys.includes(c.name)} onChange={() => toggle(c.name)}>
                  {c.name}
                </Tag.CheckableTag>
              ))}
            </Space>
          </div>
        ))}
        <Divider />
        <Select
          mode="tags"
          value={own}
          onChange={(v: string[]) => setOwn(v.map((x) => x.trim().slice(0, 20)).filter((x) => x && !x.includes('|')))}
          maxCount={userTrackMax}
          placeholder="自定义赛道：输入关键词后回车，如 露营、咖啡"
          open={false}
          style={{ width: '100%' }}
          data-testid="track-custom"
        />
        <div className="modal-actions">
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={busy} onClick={() => settle(save())} disabled={sys.length > sysTrackSelectMax} data-testid="track-save">
            保存
          </Button>
        </div>
      </div>
    </Modal>
  );
}
