import { expect } from 'chai';
import { type WorkPoint, budgetFor } from '../../../bench/work-curve.js';

/** The benchmark reads the work per answer a target allows off its measured curve (bench/work-curve.ts). */
describe('budgetFor: the work per answer at which the bare route falls to a share of itself', () => {
  const curve: WorkPoint[] = [
    { micros: 0, perBare: 1, loopMicros: 22 },
    { micros: 10, perBare: 0.64, loopMicros: 35 },
    { micros: 20, perBare: 0.45, loopMicros: 49 },
    { micros: 40, perBare: 0.25, loopMicros: 95 },
  ];

  it('interpolates between the two points around the share', () => {
    expect(budgetFor(curve, 0.5)).to.be.closeTo(10 + (0.14 / 0.19) * 10, 1e-9);
    expect(budgetFor(curve, 0.35)).to.be.closeTo(30, 1e-9);
  });

  it('gives a measured point exactly, whatever order the points come in', () => {
    expect(budgetFor([...curve].reverse(), 0.45)).to.equal(20);
    expect(budgetFor(curve, 1)).to.equal(0);
  });

  it('gives null for a share the points do not span', () => {
    expect(budgetFor(curve, 0.2)).to.equal(null);
    expect(budgetFor(curve, 1.2)).to.equal(null);
    expect(budgetFor([], 0.5)).to.equal(null);
  });

  it('takes the first crossing of a noisy curve that rises again', () => {
    const noisy: WorkPoint[] = [...curve.slice(0, 3), { micros: 30, perBare: 0.47, loopMicros: 60 }, { micros: 40, perBare: 0.25, loopMicros: 95 }];
    expect(budgetFor(noisy, 0.5)).to.be.closeTo(10 + (0.14 / 0.19) * 10, 1e-9);
  });
});
