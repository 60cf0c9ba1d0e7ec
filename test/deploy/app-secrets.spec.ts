import { composeApp, loadCompose } from './support/compose';
import { byKind, get, overlayNames, renderOverlay } from './support/render';
import { runnableApps } from './support/repo';
import { settingsInCode } from './support/settings';
import { containersOf, envNames, podSpec, settingsConfigMap } from './support/workloads';

const APPS = runnableApps();

/**
 * The app whose own code a file is: apps/<app>/src/… or its feature lib, libs/<app>-feature/src/… (shared libs
 * such as libs/platform are every app's, so they name none).
 */
function appOf(file: string): string | null {
  const m = /^apps\/([^/]+)\/src\//.exec(file) ?? /^libs\/([^/]+)-feature\/src\//.exec(file);
  return m && APPS.includes(m[1]) ? m[1] : null;
}

/**
 * Settings that come only from the Secret (a container's secretKeyRef, no ConfigMap key) reach a pod only
 * where its Deployment names them: an app whose code reads one and whose Deployment (or compose service)
 * does not name it runs without it, silently (the flagging model's key, issue 34, was given to automation
 * only). Each such setting must be given to every app that reads it, in every overlay and in compose.
 */
describe('settings from the Secret reach every app that reads them', () => {
  const inCode = settingsInCode();
  const readers = (name: string) => [...new Set((inCode.get(name) ?? []).map(appOf).filter((a): a is string => a !== null))].sort();
  const { services } = loadCompose();
  const composeServiceOf = (app: string) => Object.values(services).find((s) => composeApp(s) === app);

  it('the model key is read by automation (the AI agent) and analytics (flagging)', () => {
    expect(readers('AI_AGENT_API_KEY')).toEqual(expect.arrayContaining(['analytics', 'automation']));
  });

  it.each(overlayNames())('overlay %s gives each Secret-only setting to every app whose code reads it', (overlay) => {
    const objects = renderOverlay(overlay);
    const configMap = settingsConfigMap(objects).data ?? {};
    const fromSecret = new Set(
      byKind(objects, 'Deployment')
        .flatMap(containersOf)
        .flatMap((c) => (c.env ?? []).filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.name)),
    );
    const secretOnly = [...fromSecret].filter((name) => !(name in configMap)).sort();
    expect(secretOnly).toContain('AI_AGENT_API_KEY');
    const missing: string[] = [];
    for (const name of secretOnly) {
      for (const app of readers(name)) {
        const [container] = podSpec(get(objects, 'Deployment', app)).containers;
        if (!envNames(objects, container).includes(name)) missing.push(`${app}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('compose gives each of them to every app service whose code reads it', () => {
    const objects = renderOverlay('dev');
    const configMap = settingsConfigMap(objects).data ?? {};
    const fromSecret = new Set(
      byKind(objects, 'Deployment')
        .flatMap(containersOf)
        .flatMap((c) => (c.env ?? []).filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.name)),
    );
    const missing: string[] = [];
    for (const name of [...fromSecret].filter((n) => !(n in configMap)).sort()) {
      for (const app of readers(name)) {
        if (!Object.keys(composeServiceOf(app)?.environment ?? {}).includes(name)) missing.push(`${app}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
