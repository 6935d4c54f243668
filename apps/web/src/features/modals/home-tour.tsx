import { useState } from 'react';
import { Tour } from 'antd';
import { LS, lsSet } from '../../lib/storage-keys';

/** Newbie tour on the home input, shown once per device. */
export default function HomeTour(props: { target: () => HTMLElement | null }) {
  const [open, setOpen] = useState(true);
  const done = () => {
    lsSet(LS.tourHomeDone, String(Date.now()));
    setOpen(false);
  };
  return (
    <Tour
      open={open}
      onClose={done}
      onFinish={done}
      steps={[
        { title: '从这里开始创作', description: '输入主题或素材，选择文章或图文，AI 帮你完成初稿。', target: () => props.target() as HTMLElement },
        { title: '选择写作模式', description: '默认“深度写作”；也可以切换快速写作、仿写或改写，并开启联网搜索。', target: () => props.target() as HTMLElement },
      ]}
    />
  );
}
