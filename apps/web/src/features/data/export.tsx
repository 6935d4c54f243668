import { useState } from 'react';
import { Button } from 'antd';
import { DownloadOutlined, FilePdfOutlined } from '@ant-design/icons';
import { dataApi, type DataExportParams, type DataRangeParams } from '../../api/data';
import { saveBlob } from '../../api/writing';

/** The CSV needs the login header, so it is fetched as a blob and saved, like the draft export. */
export function ExportButton(props: { params: DataExportParams; label: string; testId: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="small"
      icon={<DownloadOutlined />}
      loading={busy}
      data-testid={props.testId}
      onClick={() => {
        setBusy(true);
        dataApi
          .exportCsv(props.params)
          .then((r) => saveBlob(r.blob, r.filename ?? `${props.params.kind === 'notes' ? '内容数据' : '每日数据'}.csv`))
          // Failures were already shown by the request layer.
          .catch(() => {})
          .finally(() => setBusy(false));
      }}
    >
      {props.label}
    </Button>
  );
}

/** The PDF report of what the page shows for the range (cards, trend, accounts, top notes). */
export function ReportButton(props: { params: DataRangeParams }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="small"
      icon={<FilePdfOutlined />}
      loading={busy}
      data-testid="data-export-pdf"
      onClick={() => {
        setBusy(true);
        dataApi
          .exportPdf(props.params)
          .then((r) => saveBlob(r.blob, r.filename ?? '数据报告.pdf'))
          .catch(() => {})
          .finally(() => setBusy(false));
      }}
    >
      导出 PDF 报告
    </Button>
  );
}
