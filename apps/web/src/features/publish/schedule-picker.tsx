import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';

/** Loaded only when the user picks "定时发布", so the date picker stays out of other bundles. */
export default function SchedulePicker(props: { value: Date | null; onChange(v: Date | null): void; maxAheadMs: number }) {
  const now = dayjs();
  return (
    <DatePicker
      showTime={{ format: 'HH:mm:ss' }}
      format="YYYY-MM-DD HH:mm:ss"
      placeholder="选择发布时间"
      value={props.value ? dayjs(props.value) : null}
      onChange={(d: Dayjs | null) => props.onChange(d ? d.toDate() : null)}
      disabledDate={(d) => d.isBefore(now, 'day') || d.isAfter(now.add(props.maxAheadMs, 'millisecond'), 'day')}
      needConfirm={false}
      aria-label="定时发布时间"
      data-testid="publish-schedule-picker"
      style={{ width: 240 }}
    />
  );
}
