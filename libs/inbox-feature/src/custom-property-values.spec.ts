import { ServiceError } from '@mapi/contracts';
import { checkPropertyValues, readOptions, readValue } from './custom-property-values';
import type { CustomPropertyRow } from './repositories/custom-property-repository';

const def = (id: string, name: string, type: string, over: Partial<CustomPropertyRow> = {}): CustomPropertyRow => ({
  property_id: id,
  org_id: 'org',
  property_name: name,
  property_value_type: type,
  property_value: [],
  is_required: false,
  type: 'chat',
  created_by: null,
  created_at: new Date(),
  ...over,
});
const defs = [
  def('p-tier', 'Tier', 'dropdown', { property_value: ['Gold', 'Silver'] }),
  def('p-seats', 'Seats', 'number'),
  def('p-vip', 'VIP', 'boolean'),
  def('p-renewal', 'Renewal', 'date'),
  def('p-notes', 'Notes', 'text'),
  def('p-region', 'Region', 'text', { is_required: true }),
];
const fieldsOf = (values: Record<string, string | null>) => {
  try {
    checkPropertyValues(defs, values);
  } catch (e) {
    expect(e).toBeInstanceOf(ServiceError);
    expect((e as ServiceError).status).toBe(422);
    return (e as ServiceError).fields;
  }
  throw new Error('expected a 422');
};

describe('checkPropertyValues', () => {
  it('keys values by property id, naming a property by id or by name in any case, each read as its type', () => {
    expect(
      checkPropertyValues(defs, {
        tier: 'gold',
        'p-seats': ' 12.5 ',
        vip: 'TRUE',
        RENEWAL: '2026-03-01',
        Notes: '  as typed  ',
        region: 'EU',
      }),
    ).toEqual({
      'p-tier': 'Gold',
      'p-seats': '12.5',
      'p-vip': 'true',
      'p-renewal': '2026-03-01',
      'p-notes': '  as typed  ',
      'p-region': 'EU',
    });
    expect(checkPropertyValues(defs, { renewal: '2026-03-01T10:00:00+02:00' })).toEqual({ 'p-renewal': '2026-03-01T08:00:00.000Z' });
  });

  it('clears a value with null or "", except a required property\'s', () => {
    expect(checkPropertyValues(defs, { Tier: null, notes: '' })).toEqual({ 'p-tier': null, 'p-notes': null });
    expect(fieldsOf({ region: '' })).toEqual({
      'body.custom_properties.region': { message: 'Region is required: its value cannot be cleared' },
    });
    expect(Object.keys(fieldsOf({ 'p-region': null }) ?? {})).toEqual(['body.custom_properties.p-region']);
  });

  it('422 with one field per bad key: unknown property, wrong type, value not an option, one property twice', () => {
    const fields = fieldsOf({
      colour: 'red',
      seats: 'many',
      vip: 'yes',
      renewal: '2026-02-30',
      tier: 'Bronze',
      Notes: 'ok',
      'p-notes': 'again',
    });
    expect(Object.keys(fields ?? {}).sort()).toEqual(
      ['colour', 'seats', 'vip', 'renewal', 'tier', 'p-notes'].map((k) => `body.custom_properties.${k}`).sort(),
    );
    expect(fields?.['body.custom_properties.tier']).toEqual({ message: 'Tier must be one of Gold, Silver', value: 'Bronze' });
    expect(fields?.['body.custom_properties.seats']?.message).toBe('Seats must be a number');
  });

  it('refuses numbers that are not plain decimals', () => {
    for (const v of ['0x10', 'Infinity', '1e999', '', '1,5']) expect(readValue(defs[1], v)).toHaveProperty('problem');
    for (const v of ['-3', '+4', '.5', '2e3']) expect(readValue(defs[1], v)).toHaveProperty('value');
  });
});

describe('readOptions', () => {
  it('reads options from a comma-separated string or an array: trimmed, no empties, no repeats (any case)', () => {
    expect(readOptions(' Gold, Silver ,,gold')).toEqual(['Gold', 'Silver']);
    expect(readOptions(['a', ' b ', 'A'])).toEqual(['a', 'b']);
  });

  it('422 on body.property_value without options, with too many or too long ones', () => {
    for (const bad of [' , ', [], Array.from({ length: 201 }, (_, i) => `o${i}`), ['x'.repeat(201)]]) {
      expect(() => readOptions(bad)).toThrow(ServiceError);
    }
  });
});
