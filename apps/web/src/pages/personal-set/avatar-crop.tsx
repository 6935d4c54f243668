import { useEffect, useRef, useState } from 'react';
import { Button, Modal, Slider } from 'antd';
import { limits } from '@inkstone/shared';
import { toast } from '../../features/notifications/toasts';
import { AVATAR_SIZE, cropRect } from './crop';

/** Picks an image, lets the user zoom and slide a square over it, and hands back the square as a PNG. */
export function AvatarCrop(props: { busy: boolean; onCropped: (png: Blob) => void }) {
  const fileRef = useRef<HTMLInputElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  const [zoom, setZoom] = useState(1);
  const [x, setX] = useState(0);
  const [y, setY] = useState(0);

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx || !image) return;
    const r = cropRect(image.naturalWidth, image.naturalHeight, zoom, x, y);
    ctx.clearRect(0, 0, AVATAR_SIZE, AVATAR_SIZE);
    ctx.drawImage(image, r.sx, r.sy, r.size, r.size, 0, 0, AVATAR_SIZE, AVATAR_SIZE);
  }, [image, zoom, x, y]);

  const pick = (file: File | undefined) => {
    if (!file) return;
    if (!/^image\/(png|jpeg|gif)$/.test(file.type)) {
      toast.message('warning', '请上传jpg、jpeg、png、gif格式的文件', 3);
      return;
    }
    if (file.size > limits.uploadMaxBytes) {
      toast.message('warning', '请上传20MB以内的文件', 3);
      return;
    }
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      setZoom(1);
      setX(0);
      setY(0);
      setImage(img);
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      toast.message('error', '文件读取失败', 3);
    };
    img.src = url;
  };

  const close = () => {
    if (image) URL.revokeObjectURL(image.src);
    setImage(null);
  };

  const save = () => {
    canvasRef.current?.toBlob((blob) => {
      if (!blob) {
        toast.message('error', '文件读取失败', 3);
        return;
      }
      props.onCropped(blob);
      close();
    }, 'image/png');
  };

  return (
    <>
      <input
        ref={fileRef}
        type="file"
        hidden
        accept="image/png,image/jpeg,image/gif"
        data-testid="avatar-file"
        aria-label="选择头像图片"
        onChange={(e) => {
          pick(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <Button onClick={() => fileRef.current?.click()} loading={props.busy} data-testid="avatar-pick">
        更换头像
      </Button>
      <Modal open={image !== null} title="裁剪头像" onCancel={close} footer={null} destroyOnHidden>
        <div className="avatar-crop" data-testid="avatar-crop">
          <canvas ref={canvasRef} width={AVATAR_SIZE} height={AVATAR_SIZE} />
          <label>缩放</label>
          <Slider min={1} max={4} step={0.05} value={zoom} onChange={setZoom} aria-label="缩放" />
          <label>左右</label>
          <Slider min={-1} max={1} step={0.02} value={x} onChange={setX} aria-label="左右" />
          <label>上下</label>
          <Slider min={-1} max={1} step={0.02} value={y} onChange={setY} aria-label="上下" />
          <div className="modal-actions">
            <Button onClick={close}>取消</Button>
            <Button type="primary" onClick={save} data-testid="avatar-save">
              保存头像
            </Button>
          </div>
        </div>
      </Modal>
    </>
  );
}
