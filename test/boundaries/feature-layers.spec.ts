import { join } from 'node:path';
import { featureLayers, layerViolations } from './feature-layers';
import { libSources } from './import-cycles';

const root = join(__dirname, '..', '..');

/**
 * Inside a feature library data flows one way: row types and reach SQL at the bottom, repositories that
 * read and write rows above them, and mappers and use cases (which map rows to API objects and choose
 * the events) above those. A repository never imports a mapper, nor a row type a mapper.
 */
describe('feature libraries import down their layers', () => {
  it('bites on an import up a layer, and lets specs and upper folders import anything', () => {
    const rules = { 'libs/x/src': ['rows', 'repositories'] };
    const planted = [
      { path: 'libs/x/src/rows/a-row.ts', text: "import { b } from '../repositories/b-repository';" },
      { path: 'libs/x/src/rows/ok-row.ts', text: "import type { A } from './a-row';" },
      {
        path: 'libs/x/src/repositories/b-repository.ts',
        text: "import { mapA } from '../mappers/map-a';\nimport type { A } from '../rows/a-row';",
      },
      { path: 'libs/x/src/repositories/b-repository.spec.ts', text: "import { mapA } from '../mappers/map-a';" },
      {
        path: 'libs/x/src/mappers/map-a.ts',
        text: "import type { A } from '../rows/a-row';\nimport { b } from '../repositories/b-repository';",
      },
    ];
    expect(layerViolations(planted, rules)).toEqual([
      'libs/x/src/repositories/b-repository.ts → libs/x/src/mappers/map-a.ts',
      'libs/x/src/rows/a-row.ts → libs/x/src/repositories/b-repository.ts',
    ]);
  });

  it('finds none in any feature library', () => {
    const files = libSources(root);
    const layers = featureLayers(root);
    expect(Object.keys(layers)).toEqual(expect.arrayContaining(['libs/chats-feature/src', 'libs/webhooks-feature/src']));
    expect(layers['libs/chats-feature/src']).toEqual(['rows', 'repositories']);
    expect(layerViolations(files, layers)).toEqual([]);
  });
});
