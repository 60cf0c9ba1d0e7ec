import { schemaProblems } from './support/k8s-schema';
import { unknownFieldProblems } from './support/strict-fields';
import { first, overlayNames, renderKustomization, renderOverlay, type K8sObject } from './support/render';

// `kubectl kustomize` renders each overlay (no cluster needed) and every rendered object is
// validated offline against the Kubernetes (and KEDA) schemas bundled by kubernetes-models, and
// type-checked against their TypeScript interfaces for fields the schemas do not know.
describe('deploy/: kustomize renders and validates', () => {
  it('has the dev and prod overlays', () => {
    expect(overlayNames()).toEqual(expect.arrayContaining(['dev', 'prod']));
  });

  it.each(overlayNames())('overlay %s renders, and every object validates against its schema', (overlay) => {
    const objects = renderOverlay(overlay);
    expect(objects.length).toBeGreaterThan(20);
    expect(objects.flatMap(schemaProblems)).toEqual([]);
  });

  it('no rendered object has a field its kind does not define (kubectl apply validates strictly)', () => {
    const all = [...overlayNames().flatMap(renderOverlay), ...renderKustomization('deploy/base')];
    expect(unknownFieldProblems(all)).toEqual([]);
  });

  it('the base renders on its own and validates too', () => {
    expect(renderKustomization('deploy/base').flatMap(schemaProblems)).toEqual([]);
  });

  it('every namespaced object of an overlay lands in the overlay namespace', () => {
    for (const overlay of overlayNames()) {
      const objects = renderOverlay(overlay);
      const namespace = objects.find((o) => o.kind === 'Namespace')?.metadata.name;
      expect(namespace).toBeDefined();
      const elsewhere = objects.filter((o) => o.kind !== 'Namespace' && o.metadata.namespace !== namespace);
      expect(elsewhere.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([]);
    }
  });

  describe('the validator itself', () => {
    const deployment = (): K8sObject => first(renderOverlay('dev'), 'Deployment');

    it('rejects a wrong type, a missing required field, and a kind it has no schema for', () => {
      const wrongType = deployment();
      wrongType.spec.replicas = 'two';
      expect(schemaProblems(wrongType).join()).toMatch(/replicas must be integer/);

      const noName = deployment();
      delete noName.spec.template.spec.containers[0].name;
      expect(schemaProblems(noName).join()).toMatch(/must have required property name/);

      expect(schemaProblems({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).toEqual([
        'Widget/w: no bundled schema for example.com/v1 Widget',
      ]);
    });

    it('reports a misspelt field, which the JSON schemas let through', () => {
      const misspelt = first(renderOverlay('dev'), 'Deployment');
      misspelt.spec.template.spec.containers[0].readinesProbe = misspelt.spec.template.spec.containers[0].readinessProbe;
      expect(schemaProblems(misspelt)).toEqual([]);
      expect(unknownFieldProblems([misspelt])).toEqual([
        expect.stringMatching(/^Deployment\/\S+: .*'"readinesProbe"' does not exist in type 'IContainer'/),
      ]);
    });

    it("validates the KEDA ScaledObject against KEDA's schema", () => {
      const scaled = first(renderOverlay('prod'), 'ScaledObject');
      expect(schemaProblems(scaled)).toEqual([]);
      delete scaled.spec.scaleTargetRef;
      expect(schemaProblems(scaled).join()).toMatch(/scaleTargetRef/);
    });
  });
});
