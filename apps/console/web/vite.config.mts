import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The console's web app: built into apps/console/dist/web, served by the console server under /console/.
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: true,
  },
  // `vite` (dev) on its own: the API and the socket go to a gateway on :8080, as the console server does.
  server: {
    proxy: {
      '/v1/socket.io': { target: 'http://127.0.0.1:8080', ws: true, rewrite: (p) => p.replace(/^\/v1/, '') },
      '/v1': 'http://127.0.0.1:8080',
    },
  },
});
