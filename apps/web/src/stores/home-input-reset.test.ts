import { describe, expect, it } from 'vitest';
import { defaultHomeInput, useHomeInputStore } from './home-input';

describe('home input reset (spec 4)', () => {
  it('restores the defaults but keeps the article abilityTypeList', () => {
    const abilities = [{ type: 'expand', name: '扩写' }];
    const store = useHomeInputStore.getState();
    store.update('article', { abilityTypeList: abilities, abilityType: 'expand', onlineSearch: true, writeType: 'fast', writeFileList: [{ id: 1 }] });
    store.update('graphic', { abilityTypeList: abilities, personaType: 'p1' });
    store.setCreateType('graphic');
    useHomeInputStore.getState().reset();
    const after = useHomeInputStore.getState();
    expect(after.article).toEqual({ ...defaultHomeInput(), abilityTypeList: abilities });
    expect(after.graphic).toEqual(defaultHomeInput());
    expect(after.createType).toBe('article');
  });

  it("defaults the write type to 'deep' (spec 9)", () => {
    expect(defaultHomeInput().writeType).toBe('deep');
  });
});
