/** Heat in the unit Chinese hot lists use: 1234567 -> 123.5万, 350000000 -> 3.5亿; feeds carry none (''). */
export const formatHeat = (n: number) => (n >= 1e8 ? `${(n / 1e8).toFixed(1)}亿` : n >= 1e4 ? `${(n / 1e4).toFixed(1)}万` : n > 0 ? String(n) : '');
