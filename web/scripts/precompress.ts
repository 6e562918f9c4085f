// Precompression of the web build: NAME.br and NAME.gz beside every text file in dist, so the Go
// server sends each in the coding the browser accepts without compressing on every request
// (api/static.go picks the twin by Accept-Encoding).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Files worth compressing: text. Images and fonts are compressed already. */
const TEXT = /\.(?:html|js|mjs|css|svg|json|txt|xml|webmanifest|map)$/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    // Dot folders (Vite's .vite/manifest.json) are build records, never fetched by the app.
    if (name.startsWith('.')) return [];
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** Writes the .br and .gz twins of every text file under dir; returns the files compressed. */
export function precompress(dir: string): string[] {
  const files = walk(dir).filter((p) => TEXT.test(p));
  for (const p of files) {
    const data = readFileSync(p);
    writeFileSync(
      `${p}.br`,
      brotliCompressSync(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
    );
    writeFileSync(`${p}.gz`, gzipSync(data, { level: 9 }));
  }
  return files;
}

/** The Vite plugin: precompresses the build once every file is written. */
export function precompressPlugin(): Plugin {
  let outDir = 'dist';
  return {
    name: 'lotbook-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      precompress(outDir);
    },
  };
}
