import { expect, it } from 'vitest';
import { validateReject } from './validation';

it.each([
  ['proof unreadable', null],
  ['', { field: 'remark', key: 'remark_required' }],
  ['   ', { field: 'remark', key: 'remark_required' }],
])('validateReject(%j) = %j', (remark, want) => expect(validateReject(remark)).toEqual(want));
