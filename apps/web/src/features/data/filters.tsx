import { DatePicker, Segmented, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { DATA_RANGE_MAX_DAYS, type DataAccountRow } from '@inkstone/shared';
import type { DataRangeParams } from '../../api/data';

export type RangeKey = '7' | '30' | '90' | 'custom';
export interface DataFilter {
  range: RangeKey;
  custom: [string, string] | null;
  accountId: number | null;
}

export const initialFilter: DataFilter = { range: '7', custom: null, accountId: null };

/** The query every panel shares; a custom range without both days falls back to 7 days until the picker is filled. */
export function toRangeParams(f: DataFilter): DataRangeParams {
  const base: DataRangeParams =
    f.range === 'custom' && f.custom ? { range: 'custom', from: f.custom[0], to: f.custom[1] } : { range: f.range === 'custom' ? '7' : f.range };
  return f.accountId ? { ...base, accountId: f.accountId } : base;
}

const rangeOptions = [
  { value: '7', label: '近7天' },
  { value: '30', label: '近30天' },
  { value: '90', label: '近90天' },
  { value: 'custom', label: '自定义' },
];

export function DataFilters(props: { value: DataFilter; onChange(next: DataFilter): void; accounts: DataAccountRow[] }) {
  const { value, onChange } = props;
  const picked: [Dayjs, Dayjs] | null = value.custom ? [dayjs(value.custom[0]), dayjs(value.custom[1])] : null;
  return (
    <div className="toolbar data-filters" data-testid="data-filters">
      <Segmented
        value={value.range}
        options={rangeOptions}
        onChange={(v) => onChange({ ...value, range: v as RangeKey })}
        aria-label="时间范围"
        data-testid="data-range"
      />
      {value.range === 'custom' ? (
        <DatePicker.RangePicker
          value={picked}
          allowClear={false}
          disabledDate={(d) => d.isAfter(dayjs(), 'day')}
          onChange={(v) => {
            if (!v?.[0] || !v[1]) return;
            const span = v[1].diff(v[0], 'day') + 1;
            // The server refuses longer ranges; clamp the start rather than send a request that fails.
            const from = span > DATA_RANGE_MAX_DAYS ? v[1].subtract(DATA_RANGE_MAX_DAYS - 1, 'day') : v[0];
            onChange({ ...value, custom: [from.format('YYYY-MM-DD'), v[1].format('YYYY-MM-DD')] });
          }}
          aria-label="自定义时间范围"
          data-testid="data-range-picker"
        />
      ) : null}
      <Select
        value={value.accountId ?? 0}
        onChange={(v: number) => onChange({ ...value, accountId: v || null })}
        options={[{ value: 0, label: '全部账号' }, ...props.accounts.map((a) => ({ value: a.accountId, label: `${a.accountName} · ${a.platformName}` }))]}
        style={{ minWidth: 200 }}
        aria-label="账号"
        data-testid="data-account"
      />
    </div>
  );
}
