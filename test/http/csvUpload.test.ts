import assert from 'node:assert/strict';
import { recordStartLine } from '../../functions/src/http/csvUpload';

// Pure: where a CSV record starts in the file.

describe('csvUpload.recordStartLine', () => {
  it('finds where a record starts from where it ends, past blank lines before it and line breaks inside it', () => {
    assert.equal(recordStartLine(5, '\n4,5,6\n'), 5);
    assert.equal(recordStartLine(9, '\n7,8,"9\n\n10"\n'), 7);
    assert.equal(recordStartLine(2, 'a,b\n'), 2);
  });
});
