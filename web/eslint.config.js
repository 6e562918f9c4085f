// Lint: the layers of src (see README, "Layout"):
//   app → features → components → domain → lib
// A module imports its own layer or one below it; a feature imports only itself (features meet
// through the app's router and shared domain code, never each other); test helpers (src/test)
// only from tests (they may take the app's composition, e.g. its routes' entries).
import { defineConfig } from 'eslint/config';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

const below = {
  app: ['app', 'feature', 'components', 'domain', 'lib'],
  feature: ['components', 'domain', 'lib'], // and its own folder (below)
  components: ['components', 'domain', 'lib'],
  domain: ['domain', 'lib'],
  lib: ['lib'],
  // test helpers (src/test), for tests only
  test: ['test', 'app', 'components', 'domain', 'lib'],
};

function dependencies(extra = []) {
  return [
    'error',
    {
      default: 'disallow',
      message: '{{ from.element.type }} {{ from.element.captured.name }} may not import {{ to.element.type }} {{ to.element.captured.name }} (see eslint.config.js)',
      policies: [
        ...Object.entries(below).map(([from, to]) => ({
          from: { element: { type: from } },
          allow: { to: { element: { types: { anyOf: to } } } },
        })),
        {
          from: { element: { type: 'feature' } },
          allow: { to: { element: { type: 'feature', captured: { name: '{{ from.element.captured.name }}' } } } },
        },
        ...extra,
      ],
    },
  ];
}

const layers = {
  plugins: { boundaries },
  settings: {
    'boundaries/elements': [
      { type: 'app', pattern: 'src/app' },
      { type: 'feature', pattern: 'src/features/*', capture: ['name'] },
      { type: 'components', pattern: 'src/components' },
      { type: 'domain', pattern: 'src/domain/*', capture: ['name'] },
      { type: 'lib', pattern: 'src/lib' },
      { type: 'test', pattern: 'src/test' },
    ],
    'boundaries/include': ['src/**/*'],
    'import/resolver': { typescript: { project: './tsconfig.json' } },
  },
  rules: { 'boundaries/dependencies': dependencies() },
};

export default defineConfig(
  { ignores: ['dist', 'node_modules', 'dev-dist', 'src/lib/api/schema.d.ts'] },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser },
    ...layers,
  },
  {
    // A test may use the test helpers, whatever layer it tests.
    files: ['src/**/*.test.{ts,tsx}'],
    rules: { 'boundaries/dependencies': dependencies([{ allow: { to: { element: { type: 'test' } } } }]) },
  },
);
