import { useEffect, useMemo, useRef, useState } from 'react';
import Konva from 'konva';
import { Arrow, Ellipse, Image as KImage, Layer, Line, Rect, Stage, Text } from 'react-konva';
import { Alert, Button, ColorPicker, Input, InputNumber, Radio, Select, Slider, Space, Spin, Tooltip } from 'antd';
import { PlusOutlined, RedoOutlined, RotateRightOutlined, UndoOutlined, DeleteOutlined } from '@ant-design/icons';
import {
  centreFor,
  commit,
  cropRatios,
  frameSize,
  newShape,
  panFor,
  redo,
  shapeKinds,
  startHistory,
  undo,
  type CropRatio,
  type EditDoc,
  type History,
  type ShapeKind,
  type ShapeLayer,
  type TextLayer,
} from './edit-state';
import { settle } from '../../../api/request';

const fonts = [
  { value: '"Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif', label: '黑体' },
  { value: '"Noto Serif CJK SC", "Songti SC", SimSun, serif', label: '宋体' },
  { value: 'KaiTi, "Kaiti SC", STKaiti, serif', label: '楷体' },
];
const stickers = ['✨', '🔥', '❤️', '👍', '📌', '✅', '⭐', '🌿'];
const shapeNames: Record<ShapeKind, string> = { rect: '方框', circle: '圆圈', arrow: '箭头', line: '直线' };
const VIEW_MAX = 520;

function useImage(url: string) {
  const [state, setState] = useState<{ img: HTMLImageElement | null; error: boolean }>({ img: null, error: false });
  useEffect(() => {
    const img = new window.Image();
    // Card pictures may come from the storage bucket: without CORS the canvas could not be exported.
    img.crossOrigin = 'anonymous';
    img.onload = () => setState({ img, error: false });
    img.onerror = () => setState({ img: null, error: true });
    img.src = url;
    return () => {
      img.onload = null;
      img.onerror = null;
    };
  }, [url]);
  return state;
}

const newId = () => `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export interface CanvasEditorProps {
  imageUrl: string;
  saving: boolean;
  /** The edited card as a PNG of the chosen ratio's full size, and that ratio (the server stores the card at it). */
  onSave(png: Blob, aspect: CropRatio): void;
  onCancel(): void;
}

/** Crop, rotate, filters and text layers over one card picture, with undo/redo; exported at full size as PNG. */
export default function CanvasEditor({ imageUrl, saving, onSave, onCancel }: CanvasEditorProps) {
  const { img, error } = useImage(imageUrl);
  const [h, setH] = useState<History>(() => startHistory());
  const [selected, setSelected] = useState<string | null>(null);
  const stageRef = useRef<Konva.Stage>(null);
  const imageRef = useRef<Konva.Image>(null);
  const doc = h.present;
  const { width, height } = frameSize(doc.crop);
  const view = VIEW_MAX / Math.max(width, height);
  const change = (patch: Partial<EditDoc>) => setH((x) => commit(x, { ...x.present, ...patch }));
  const setText = (id: string, patch: Partial<TextLayer>) => setH((x) => commit(x, { ...x.present, texts: x.present.texts.map((t) => (t.id === id ? { ...t, ...patch } : t)) }));
  const setShape = (id: string, patch: Partial<ShapeLayer>) =>
    setH((x) => commit(x, { ...x.present, shapes: x.present.shapes.map((s) => (s.id === id ? { ...s, ...patch } : s)) }));
  const text = doc.texts.find((t) => t.id === selected) ?? null;
  const shape = doc.shapes.find((s) => s.id === selected) ?? null;
  const centre = useMemo(() => (img ? centreFor(doc, img.naturalWidth, img.naturalHeight) : null), [img, doc]);

  // Konva filters work on a cached bitmap, drawn again whenever the picture or a filter changes.
  useEffect(() => {
    const node = imageRef.current;
    if (!node || !img) return;
    node.cache();
    node.getLayer()?.batchDraw();
  }, [img, doc.brightness, doc.contrast, doc.saturation, doc.rotation, doc.crop]);

  const addText = (value: string, fontSize: number) => {
    const t: TextLayer = { id: newId(), text: value, x: width * 0.1, y: height * 0.4, fontSize, fontFamily: fonts[0]!.value, fill: '#ffffff', stroke: '#000000', strokeWidth: 4 };
    change({ texts: [...doc.texts, t] });
    setSelected(t.id);
  };
  const removeText = (id: string) => {
    change({ texts: doc.texts.filter((t) => t.id !== id) });
    setSelected(null);
  };
  const addShape = (kind: ShapeKind) => {
    const s = newShape(kind, newId(), { width, height });
    change({ shapes: [...doc.shapes, s] });
    setSelected(s.id);
  };
  const removeShape = (id: string) => {
    change({ shapes: doc.shapes.filter((s) => s.id !== id) });
    setSelected(null);
  };

  const onKey = (e: React.KeyboardEvent) => {
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === 'z') {
      setH((x) => (e.shiftKey ? redo(x) : undo(x)));
      e.preventDefault();
      return;
    }
    if (mod && e.key.toLowerCase() === 'y') {
      setH(redo);
      e.preventDefault();
      return;
    }
    const layer = text ?? shape;
    if (!layer) return;
    const step = e.shiftKey ? 50 : 10;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const m = moves[e.key];
    if (m) {
      const to = { x: layer.x + m[0], y: layer.y + m[1] };
      if (text) setText(text.id, to);
      else setShape(layer.id, to);
      e.preventDefault();
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      if (text) removeText(text.id);
      else removeShape(layer.id);
      e.preventDefault();
    }
  };

  const save = async () => {
    const stage = stageRef.current;
    if (!stage) return;
    setSelected(null);
    // The selection outline is drawn by React: wait one frame so it is gone before the export.
    await new Promise((r) => requestAnimationFrame(() => r(null)));
    const blob = (await stage.toBlob({ pixelRatio: 1 / view, mimeType: 'image/png' })) as Blob;
    onSave(blob, doc.crop);
  };

  if (error) return <Alert type="error" showIcon title="图片加载失败" description="请返回编辑器重试" action={<Button onClick={onCancel}>返回</Button>} />;
  if (!img || !centre)
    return (
      <Spin tip="正在加载图片…">
        <div style={{ height: 300 }} />
      </Spin>
    );

  return (
    <div className="image-editor">
      <div className="image-stage" tabIndex={0} onKeyDown={onKey} aria-label="画布：方向键移动选中文字，Delete 删除，Ctrl+Z 撤销，Ctrl+Shift+Z 重做" data-testid="image-stage">
        <Stage ref={stageRef} width={width * view} height={height * view} scaleX={view} scaleY={view} onMouseDown={(e) => e.target === e.target.getStage() && setSelected(null)}>
          <Layer>
            <Rect width={width} height={height} fill="#ffffff" listening={false} />
            <KImage
              ref={imageRef}
              image={img}
              x={centre.x}
              y={centre.y}
              offsetX={img.naturalWidth / 2}
              offsetY={img.naturalHeight / 2}
              scaleX={centre.scale}
              scaleY={centre.scale}
              rotation={doc.rotation}
              filters={[Konva.Filters.Brighten, Konva.Filters.Contrast, Konva.Filters.HSL]}
              brightness={doc.brightness}
              contrast={doc.contrast}
              saturation={doc.saturation}
              draggable
              onMouseDown={() => setSelected(null)}
              onDragEnd={(e) => {
                const p = panFor(doc, img.naturalWidth, img.naturalHeight, e.target.x(), e.target.y());
                change(p);
                const c = centreFor({ ...doc, ...p }, img.naturalWidth, img.naturalHeight);
                e.target.position({ x: c.x, y: c.y });
              }}
            />
            {doc.shapes.map((s) => (
              <ShapeNode key={s.id} shape={s} onSelect={() => setSelected(s.id)} onMove={(x, y) => setShape(s.id, { x, y })} />
            ))}
            {doc.texts.map((t) => (
              <TextNode key={t.id} layer={t} onSelect={() => setSelected(t.id)} onMove={(x, y) => setText(t.id, { x, y })} />
            ))}
            {text ? <SelectionBox layer={text} /> : null}
            {shape ? <ShapeSelection shape={shape} /> : null}
          </Layer>
        </Stage>
      </div>
      <div className="image-tools">
        <Space wrap>
          <Tooltip title="撤销 (Ctrl+Z)">
            <Button icon={<UndoOutlined />} aria-label="撤销" disabled={!h.past.length} onClick={() => setH(undo)} data-testid="undo" />
          </Tooltip>
          <Tooltip title="重做 (Ctrl+Shift+Z)">
            <Button icon={<RedoOutlined />} aria-label="重做" disabled={!h.future.length} onClick={() => setH(redo)} data-testid="redo" />
          </Tooltip>
          <Button icon={<RotateRightOutlined />} onClick={() => change({ rotation: ((doc.rotation + 90) % 360) as EditDoc['rotation'] })} data-testid="rotate">
            旋转
          </Button>
        </Space>
        <h4>裁剪比例</h4>
        <Radio.Group value={doc.crop} onChange={(e) => change({ crop: e.target.value as CropRatio, panX: 0.5, panY: 0.5 })} data-testid="crop-ratio">
          {cropRatios.map((r) => (
            <Radio.Button key={r} value={r}>
              {r}
            </Radio.Button>
          ))}
        </Radio.Group>
        <p className="muted small">拖动图片调整裁剪位置</p>
        <h4>滤镜</h4>
        <FilterSlider label="亮度" min={-0.5} max={0.5} step={0.05} value={doc.brightness} onCommit={(v) => change({ brightness: v })} />
        <FilterSlider label="对比度" min={-50} max={50} step={5} value={doc.contrast} onCommit={(v) => change({ contrast: v })} />
        <FilterSlider label="饱和度" min={-1} max={2} step={0.1} value={doc.saturation} onCommit={(v) => change({ saturation: v })} />
        <h4>文字与贴纸</h4>
        <Space wrap>
          <Button icon={<PlusOutlined />} onClick={() => addText('双击右侧修改文字', 72)} data-testid="add-text">
            添加文字
          </Button>
          {stickers.map((s) => (
            <Button key={s} aria-label={`贴纸 ${s}`} onClick={() => addText(s, 120)}>
              {s}
            </Button>
          ))}
        </Space>
        <h4>形状</h4>
        <Space wrap data-testid="shape-stickers">
          {shapeKinds.map((k) => (
            <Button key={k} onClick={() => addShape(k)} data-testid={`add-shape-${k}`}>
              {shapeNames[k]}
            </Button>
          ))}
        </Space>
        {text ? (
          <TextControls key={text.id} layer={text} onChange={(p) => setText(text.id, p)} onRemove={() => removeText(text.id)} />
        ) : shape ? (
          <ShapeControls key={shape.id} shape={shape} onChange={(p) => setShape(shape.id, p)} onRemove={() => removeShape(shape.id)} />
        ) : (
          <p className="muted small">点击画布上的文字或形状可编辑</p>
        )}
        <p className="muted small" data-testid="layer-count">
          文字 {doc.texts.length} · 形状 {doc.shapes.length}
        </p>
        <div className="image-actions">
          <Button onClick={onCancel}>取消</Button>
          <Button type="primary" loading={saving} onClick={() => settle(save())} data-testid="image-save">
            保存到卡片
          </Button>
        </div>
      </div>
    </div>
  );
}

/** One text layer; dragging it records one undo step when dropped. */
function TextNode({ layer: t, onSelect, onMove }: { layer: TextLayer; onSelect(): void; onMove(x: number, y: number): void }) {
  return (
    <Text
      text={t.text}
      x={t.x}
      y={t.y}
      fontSize={t.fontSize}
      fontFamily={t.fontFamily}
      fontStyle="bold"
      fill={t.fill}
      stroke={t.strokeWidth > 0 ? t.stroke : undefined}
      strokeWidth={t.strokeWidth}
      fillAfterStrokeEnabled
      draggable
      onMouseDown={onSelect}
      onTap={onSelect}
      onDragEnd={(e) => onMove(Math.round(e.target.x()), Math.round(e.target.y()))}
    />
  );
}

/** The dashed outline around the selected shape (not exported: the selection is cleared before saving). */
function ShapeSelection({ shape }: { shape: ShapeLayer }) {
  return (
    <Rect
      x={shape.x - shape.strokeWidth - 8}
      y={shape.y - shape.strokeWidth - 8}
      width={shape.width + 2 * shape.strokeWidth + 16}
      height={shape.height + 2 * shape.strokeWidth + 16}
      stroke="#1677ff"
      strokeWidth={4}
      dash={[16, 8]}
      listening={false}
    />
  );
}

/** One shape sticker; dragging it records one undo step when dropped. */
function ShapeNode({ shape: s, onSelect, onMove }: { shape: ShapeLayer; onSelect(): void; onMove(x: number, y: number): void }) {
  const common = { stroke: s.stroke, strokeWidth: s.strokeWidth, draggable: true, onMouseDown: onSelect, onTap: onSelect };
  if (s.kind === 'rect')
    return (
      <Rect
        {...common}
        x={s.x}
        y={s.y}
        width={s.width}
        height={s.height}
        fill={s.fill || undefined}
        onDragEnd={(e) => onMove(Math.round(e.target.x()), Math.round(e.target.y()))}
      />
    );
  if (s.kind === 'circle')
    return (
      <Ellipse
        {...common}
        // An ellipse is placed by its centre; the document keeps the box.
        x={s.x + s.width / 2}
        y={s.y + s.height / 2}
        radiusX={s.width / 2}
        radiusY={s.height / 2}
        fill={s.fill || undefined}
        onDragEnd={(e) => onMove(Math.round(e.target.x() - s.width / 2), Math.round(e.target.y() - s.height / 2))}
      />
    );
  const points = [0, 0, s.width, s.height];
  const move = (e: Konva.KonvaEventObject<DragEvent>) => onMove(Math.round(e.target.x()), Math.round(e.target.y()));
  // A thin line is hard to grab: the hit area is widened.
  if (s.kind === 'arrow')
    return (
      <Arrow {...common} x={s.x} y={s.y} points={points} fill={s.stroke} pointerLength={s.strokeWidth * 3} pointerWidth={s.strokeWidth * 3} hitStrokeWidth={40} onDragEnd={move} />
    );
  return <Line {...common} x={s.x} y={s.y} points={points} lineCap="round" hitStrokeWidth={40} onDragEnd={move} />;
}

function ShapeControls({ shape, onChange, onRemove }: { shape: ShapeLayer; onChange(p: Partial<ShapeLayer>): void; onRemove(): void }) {
  const filled = shape.kind === 'rect' || shape.kind === 'circle';
  return (
    <div className="text-controls" data-testid="shape-controls">
      <Space wrap>
        <span>
          颜色 <ColorPicker aria-label="形状颜色" size="small" value={shape.stroke} onChangeComplete={(c) => onChange({ stroke: c.toHexString() })} />
        </span>
        <span>
          粗细 <InputNumber aria-label="线条粗细" size="small" min={1} max={60} value={shape.strokeWidth} onChange={(v) => typeof v === 'number' && onChange({ strokeWidth: v })} />
        </span>
        <span>
          宽度{' '}
          <InputNumber
            aria-label="形状宽度"
            size="small"
            min={20}
            max={2000}
            value={shape.width}
            // A rect or circle keeps its proportions; a line or arrow only gets longer.
            onChange={(v) => typeof v === 'number' && onChange({ width: v, height: shape.width ? Math.round((shape.height * v) / shape.width) : shape.height })}
          />
        </span>
        {filled ? (
          <span>
            填充{' '}
            <ColorPicker
              aria-label="填充颜色"
              size="small"
              allowClear
              value={shape.fill || null}
              onChangeComplete={(c) => onChange({ fill: c.toHexString() })}
              onClear={() => onChange({ fill: '' })}
            />
          </span>
        ) : null}
        <Button danger size="small" icon={<DeleteOutlined />} onClick={onRemove} data-testid="shape-remove">
          删除
        </Button>
      </Space>
    </div>
  );
}

/** A dashed box around the selected text (not exported: cleared before saving). */
function SelectionBox({ layer }: { layer: TextLayer }) {
  const measure = useMemo(
    () => new Konva.Text({ text: layer.text, fontSize: layer.fontSize, fontFamily: layer.fontFamily, fontStyle: 'bold' }),
    [layer.text, layer.fontSize, layer.fontFamily],
  );
  return <Rect x={layer.x - 8} y={layer.y - 8} width={measure.width() + 16} height={measure.height() + 16} stroke="#1677ff" strokeWidth={4} dash={[16, 8]} listening={false} />;
}

/** A slider that shows while dragging and records one undo step when released. */
function FilterSlider({ label, min, max, step, value, onCommit }: { label: string; min: number; max: number; step: number; value: number; onCommit(v: number): void }) {
  const [v, setV] = useState(value);
  useEffect(() => setV(value), [value]);
  return (
    <div className="filter-row">
      <span>{label}</span>
      <Slider aria-label={label} min={min} max={max} step={step} value={v} onChange={setV} onChangeComplete={onCommit} style={{ flex: 1 }} />
    </div>
  );
}

function TextControls({ layer, onChange, onRemove }: { layer: TextLayer; onChange(p: Partial<TextLayer>): void; onRemove(): void }) {
  const [value, setValue] = useState(layer.text);
  return (
    <div className="text-controls" data-testid="text-controls">
      <Input.TextArea
        aria-label="文字内容"
        data-testid="text-content"
        autoSize={{ minRows: 1, maxRows: 4 }}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onBlur={() => value !== layer.text && onChange({ text: value || ' ' })}
        onPressEnter={(e) => {
          if (!e.shiftKey) {
            e.preventDefault();
            onChange({ text: value || ' ' });
          }
        }}
      />
      <Space wrap>
        <Select aria-label="字体" style={{ width: 90 }} value={layer.fontFamily} onChange={(fontFamily: string) => onChange({ fontFamily })} options={fonts} />
        <span>
          字号 <InputNumber aria-label="字号" size="small" min={12} max={400} value={layer.fontSize} onChange={(v) => typeof v === 'number' && onChange({ fontSize: v })} />
        </span>
        <span>
          颜色 <ColorPicker aria-label="文字颜色" size="small" value={layer.fill} onChangeComplete={(c) => onChange({ fill: c.toHexString() })} />
        </span>
        <span>
          描边 <ColorPicker aria-label="描边颜色" size="small" value={layer.stroke} onChangeComplete={(c) => onChange({ stroke: c.toHexString() })} />
          <InputNumber aria-label="描边粗细" size="small" min={0} max={30} value={layer.strokeWidth} onChange={(v) => typeof v === 'number' && onChange({ strokeWidth: v })} />
        </span>
        <Button danger size="small" icon={<DeleteOutlined />} onClick={onRemove}>
          删除
        </Button>
      </Space>
    </div>
  );
}
