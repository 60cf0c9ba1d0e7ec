import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const ROOT = join(__dirname, '..', '..', '..');
/** Screenshots of each page a browser test visits (git-ignored; CI keeps the folder). */
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'console');

/**
 * Debian's Chromium (scripts/ensure-chromium.sh installs it) driven by playwright-core, which
 * downloads no browser of its own. Headless, no sandbox (root), none of Chromium's background
 * traffic (the machines' closed network refuses it), a fresh profile per launch.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

const AXE_SOURCE = () => readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core run in the page (evaluated through the DevTools protocol, which the page's CSP does not
 * govern): the serious and critical violations, as `id (impact): help — targets`.
 */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  // Page code as strings: this program is type-checked without the DOM's types.
  if (!(await page.evaluate("'axe' in window"))) await page.evaluate(AXE_SOURCE());
  const violations = (await page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)",
  )) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A screenshot for the artifacts, and the page's serious/critical accessibility violations. */
export async function checkPage(page: Page, name: string): Promise<string[]> {
  await screenshot(page, name);
  return seriousA11yViolations(page);
}

/**
 * The text a QR image on the page encodes, read from its pixels as a camera would: the image is
 * drawn on a canvas in the page and decoded in Node with the `qr` package's decoder.
 */
export async function decodeQrImage(page: Page, selector: string): Promise<string> {
  const size = 400;
  // Drawn at a fixed size on white; one byte per pixel (grey) as base64: a large array is slow over the protocol.
  const pixels = (await page.evaluate(`(async () => {
    const img = document.querySelector(${JSON.stringify(selector)});
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = ${size};
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, ${size}, ${size});
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(img, 20, 20, ${size - 40}, ${size - 40});
    const rgba = ctx.getImageData(0, 0, ${size}, ${size}).data;
    let grey = '';
    for (let i = 0; i < rgba.length; i += 4) grey += String.fromCharCode(Math.round((rgba[i] + rgba[i + 1] + rgba[i + 2]) / 3));
    return btoa(grey);
  })()`)) as string;
  const grey = Buffer.from(pixels, 'base64');
  const rgba = Buffer.alloc(grey.length * 4);
  grey.forEach((v, i) => rgba.fill(v, i * 4, i * 4 + 3).writeUInt8(255, i * 4 + 3));
  // qr is an ES module: decoded in a child Node process (Jest loads CommonJS).
  const script = `import decodeQR from 'qr/decode.js'; const c=[]; process.stdin.on('data',d=>c.push(d)).on('end',()=>process.stdout.write(decodeQR({width:${size},height:${size},data:new Uint8Array(Buffer.concat(c))})));`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, input: rgba }).toString('utf8');
}
