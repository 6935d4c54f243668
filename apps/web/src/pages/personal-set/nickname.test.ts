import { describe, expect, it } from 'vitest';
import { nicknameSchema } from '@inkstone/shared';
import { nicknameProblem } from './nickname';

describe('the settings form checks a nickname as the server does', () => {
  it('agrees with nicknameSchema on accepted and refused names', () => {
    for (const name of ['小砚_写作', 'ab', '砚·台', 'x'.repeat(20), 'a', 'x'.repeat(21), '坏<script>', '有 空格', '', '  ', 'emoji😀']) {
      const server = nicknameSchema.safeParse(name);
      expect(nicknameProblem(name) === null, name).toBe(server.success);
      if (!server.success) expect(nicknameProblem(name)).toBe(server.error.issues[0]!.message);
    }
  });
});
