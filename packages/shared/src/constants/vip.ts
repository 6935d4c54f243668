// Constants of the VIP and payment contract that the web uses at run time (no zod: see web.ts).

/** refunded / partially_refunded: after a refund from the operators' console (points and VIP days taken back with it). */
export const orderStatuses = ['pending', 'paid', 'closed', 'expired', 'refunded', 'partially_refunded'] as const;
