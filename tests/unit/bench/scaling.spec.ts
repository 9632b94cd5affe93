import { expect } from 'chai';
import { scalingWorkers } from '../../../bench/scaling.js';

describe('scalingWorkers: the WORKERS values of the benchmark\'s scaling table', () => {
  it('is 1, 2 and the host\'s cores, each once, in order', () => {
    expect(scalingWorkers(16)).to.deep.equal([1, 2, 16]);
    expect(scalingWorkers(2)).to.deep.equal([1, 2]);
    expect(scalingWorkers(1)).to.deep.equal([1, 2]);
    expect(scalingWorkers(4)).to.deep.equal([1, 2, 4]);
  });
});
