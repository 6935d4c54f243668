// Constants of the auth contract that the web uses at run time, kept free of zod so the web bundle need not load it.
export const TOKEN_NAME = 'inkstone-token';
