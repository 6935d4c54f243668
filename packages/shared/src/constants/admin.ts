// Constants of the operators' console contract that the web uses at run time (no zod: see web.ts).
/**
 * The operators' console (/api/admin). Roles, lowest first: each route declares the lowest role it needs and every
 * higher role may call it too (viewer < support < operator < owner).
 */
export const adminRoles = ['viewer', 'support', 'operator', 'owner'] as const;
export type AdminRole = (typeof adminRoles)[number];
export const adminRoleLabels = { viewer: '只读', support: '客服', operator: '运营', owner: '所有者' } as const satisfies Record<AdminRole, string>;
/** Whether `role` may call a route that needs `need`. */
export const adminRoleAtLeast = (role: AdminRole | null | undefined, need: AdminRole): boolean => !!role && adminRoles.indexOf(role) >= adminRoles.indexOf(need);

export const codeKinds = ['points', 'vip_days'] as const;
export const codeKindLabels = { points: '积分', vip_days: '会员天数' } as const satisfies Record<(typeof codeKinds)[number], string>;

/** Who a console notice reaches: every user, the listed user ids, or whoever is a VIP member when they look. */
export const noticeAudiences = ['all', 'users', 'vip'] as const;
export const noticeAudienceLabels = { all: '全部用户', users: '指定用户', vip: '会员用户' } as const satisfies Record<(typeof noticeAudiences)[number], string>;
