import { useRef, useState } from 'react';
import { Button, Empty, Input, Modal, Spin, Tabs } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { isApiError } from '../../api/request';
import { writingApi, type ImageItem } from '../../api/writing';
import { toast } from '../notifications/toasts';
import { IMAGE_MSG, imageProblem, readHead } from './image-check';
import { settle } from '../../api/request';

/** Checks an image the way the server will (spec section 5), then uploads it; returns its URL or null. */
export async function uploadImageChecked(file: File): Promise<string | null> {
  let head: Uint8Array;
  try {
    head = await readHead(file);
  } catch {
    toast.message('error', IMAGE_MSG.readFailed, 3);
    return null;
  }
  const problem = imageProblem(file, head);
  if (problem) {
    toast.message('error', problem, 3);
    return null;
  }
  try {
    return (await writingApi.uploadImage(file)).url;
  } catch (e) {
    const code = isApiError(e) ? e.code : null;
    // 401/430 already opened the login prompt. A refusal by the server is the upload call's
    // '上传失败'; no answer at all (offline, timeout) is spec section 5's default '上传图片失败'.
    if (code === 401 || code === 430) return null;
    toast.message('error', code !== null ? IMAGE_MSG.uploadFailed : IMAGE_MSG.uploadImageFailed, 3);
    return null;
  }
}

export function ImagePicker(props: { open: boolean; onClose(): void; onPick(url: string): void }) {
  const fileRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [keyword, setKeyword] = useState('');
  const [results, setResults] = useState<ImageItem[] | null>(null);
  const [searching, setSearching] = useState(false);

  const onFile = async (f: File | undefined) => {
    if (!f) return;
    setBusy(true);
    const url = await uploadImageChecked(f);
    setBusy(false);
    if (fileRef.current) fileRef.current.value = '';
    if (url) {
      props.onPick(url);
      props.onClose();
    }
  };

  const search = async () => {
    setSearching(true);
    try {
      setResults(await writingApi.searchImages(keyword.trim()));
    } catch {
      // 991 (no results) is shown by the request layer as the error notice.
      setResults([]);
    } finally {
      setSearching(false);
    }
  };

  return (
    <Modal open={props.open} onCancel={props.onClose} footer={null} title="插入图片" width={640} destroyOnHidden>
      <Tabs
        items={[
          {
            key: 'upload',
            label: '本地上传',
            children: (
              <div className="image-upload" data-testid="image-upload">
                <input ref={fileRef} type="file" accept="image/png,image/jpeg,image/gif" hidden aria-label="选择图片" onChange={(e) => settle(onFile(e.target.files?.[0]))} />
                <Button icon={<UploadOutlined />} loading={busy} onClick={() => fileRef.current?.click()}>
                  选择图片
                </Button>
                <p className="muted">支持 jpg、jpeg、png、gif，20MB 以内。</p>
              </div>
            ),
          },
          {
            key: 'search',
            label: '我的素材',
            children: (
              <div data-testid="image-search">
                <Input.Search
                  placeholder="按名称或关键词搜索已上传的图片"
                  value={keyword}
                  onChange={(e) => setKeyword(e.target.value)}
                  onSearch={() => settle(search())}
                  enterButton="搜索"
                  loading={searching}
                  maxLength={50}
                />
                <Spin spinning={searching}>
                  {results && results.length === 0 ? <Empty description="暂无图片" /> : null}
                  <div className="image-grid">
                    {results?.map((img) => (
                      <button
                        key={img.id}
                        type="button"
                        className="image-cell"
                        onClick={() => {
                          props.onPick(img.url);
                          props.onClose();
                        }}
                      >
                        <img src={img.url} alt={img.name} loading="lazy" />
                      </button>
                    ))}
                  </div>
                </Spin>
              </div>
            ),
          },
        ]}
      />
    </Modal>
  );
}
