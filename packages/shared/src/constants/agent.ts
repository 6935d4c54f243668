// Constants of the agent contract that the web uses at run time, kept free of zod so the web bundle need not load it.

export const agentLimits = { contentMax: 2000, titleMax: 50, historyMessages: 60, maxSteps: 8 } as const;

/** SSE event types of a turn's stream. */
export type AgentEventType = 'reasoning' | 'delta' | 'tool_call' | 'tool_result' | 'action' | 'task' | 'done' | 'error';
