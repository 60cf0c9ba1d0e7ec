import type { ImportJob } from '../import-job';
import { relabel, translateKeys } from './setup-steps';

/** A job whose id map knows one label and one property, each brought under a new id here. */
const job = {
  targetOf: (resource: string, id: string) =>
    (
      ({ labels: { 'src-label-1': 'our-label-1' }, custom_properties: { 'src-prop': 'our-prop' } }) as Record<
        string,
        Record<string, string>
      >
    )[resource]?.[id],
} as unknown as ImportJob;

describe("setup steps: a source record's keys in our ids", () => {
  it("relabel gives a ticket's label ids ours, and keeps a label given by name", () => {
    expect(relabel(job, { 'src-label-1': true, Billing: true })).toEqual({ 'our-label-1': true, Billing: true });
  });

  it('translateKeys keeps only the values of properties brought here', () => {
    expect(translateKeys(job, 'custom_properties', { 'src-prop': 'gold', unknown: 'x' })).toEqual({ 'our-prop': 'gold' });
    expect(translateKeys(job, 'custom_properties', null)).toBeNull();
  });
});
